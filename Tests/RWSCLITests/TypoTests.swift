import Foundation
import RWSTestSupport
import Testing

/// What a mistyped command line gets: the error for what was meant, never a different one.
@Suite struct TypoTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-typo-home-\(UUID().uuidString.prefix(8))").path

    @Test(arguments: ["./typo.jsonl", "/no/such/session.jsonl", "~/typo.jsonl", "typo.jsonl", "../typo"])
    func aMissingLocalPathIsNoSuchFileNotNoHostGiven(path: String) async throws {
        for command in ["history", "export"] {
            let outcome = await InProcessRWS.run([command, path], home: home)
            #expect(outcome.status == 66, "\(command) \(path): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.stderr.contains("no such file: \(path)"), "\(command) \(path): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("no host given"))
        }
    }

    @Test func aSessionIdWithoutAHostStillAsksForTheHost() async throws {
        let outcome = await InProcessRWS.run(["history", "0b1c"], home: home)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("no host given"))
    }

    @Test func localWithAMissingFolderIsAnError() async throws {
        for arguments in [["sessions", "--local", "/no/such/dir"], ["sessions", "--local", "/no/such/dir", "--json"]] {
            let outcome = await InProcessRWS.run(arguments, home: home)
            #expect(outcome.status == 66, "\(arguments): \(outcome.status) \(outcome.stdout) \(outcome.stderr)")
            #expect(
                (outcome.stderr + outcome.stdout).replacingOccurrences(of: "\\/", with: "/").contains(
                    "--local /no/such/dir: no such folder"))
            #expect(!outcome.stdout.contains("no sessions"))
        }
        // A file is not a project folder either.
        let file = home + "-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(await InProcessRWS.run(["sessions", "--local", file], home: home).status == 66)
    }

    @Test func anUnknownCommandIsAnErrorWithASuggestionHelpOrNot() async throws {
        let cases: [(arguments: [String], suggestion: String)] = [
            (["tail", "--help"], "did you mean 'rws history --follow'?"),
            (["tail"], "did you mean 'rws history --follow'?"),
            (["notify"], "did you mean 'rws watch'?"),
            (["hsitory", "0b1c"], "did you mean 'rws history'?"),
            (["sesions", "--help"], "did you mean 'rws sessions'?"),
            (["ssh", "--host", "box"], "did you mean 'rws shell'?"),
            (["config", "shwo"], "did you mean 'rws config show'?"),
            (["frobnicate"], "see 'rws --help' for the commands"),
        ]
        for (arguments, suggestion) in cases {
            let outcome = await InProcessRWS.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.status)")
            #expect(outcome.stderr.contains("'\(arguments[arguments[0] == "config" ? 1 : 0])' is not a command"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains(suggestion), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "no general help on stdout: \(outcome.stdout.prefix(80))")
        }
        let json = await InProcessRWS.run(["tail", "--json"])
        #expect(json.status == 64)
        #expect(json.stdout.contains("\"exitCode\":64") && json.stdout.contains("did you mean"))
    }

    @Test func knownCommandsAndHelpStillWork() async throws {
        for arguments in [["--help"], ["help"], ["help", "exec"], ["exec", "--help"], ["config", "show", "--help"], ["--version"]] {
            let outcome = await InProcessRWS.run(arguments)
            #expect(outcome.status == 0 && !outcome.stdout.isEmpty, "\(arguments)")
        }
    }
}
