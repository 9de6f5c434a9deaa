import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// The review's acts run by /bin/sh (dash) on this machine against real repositories: what
/// they change, and that nothing outside the repository is touched.
@Suite struct GitReviewActionTests {
    private static func run(
        _ script: RemoteScript, in directory: String, _ arguments: [String] = [], input: [UInt8] = []
    ) throws
        -> ScriptShells.Run
    {
        try ScriptShells.run(
            script, [.path(directory)] + arguments.map { .word($0) }, shell: try ScriptShells.dash(), input: input, directory: "/",
            home: "/", timeout: .seconds(60))
    }

    private static func act(_ action: String, _ paths: [[UInt8]], in repo: String) throws -> ScriptShells.Run {
        try run(ReviewScripts.paths, in: repo, [action], input: paths.flatMap { $0 + [0] })
    }

    private static func status(_ repo: String) throws -> GitStatus {
        try GitStatusParser.parse(try run(ReviewScripts.status, in: repo).stdout)
    }

    @Test func stagingAndUnstagingTakeHostileNamesExactly() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.make(in: folder.path)
        let names = ReviewRepository.hostileNames + [Array("del.txt".utf8)]
        #expect(try Self.act("stage", names, in: repo).status == 0)
        let staged = try Self.status(repo)
        for name in ReviewRepository.hostileNames {
            #expect(staged.entries.first { $0.path.bytes == name }?.staged == .added)
        }
        #expect(staged.entries.first { $0.path == GitPath("del.txt") }?.staged == .deleted)

        #expect(try Self.act("unstage", names, in: repo).status == 0)
        let unstaged = try Self.status(repo)
        #expect(unstaged.untracked.count == ReviewRepository.hostileNames.count)
        #expect(unstaged.entries.first { $0.path == GitPath("del.txt") }?.unstaged == .deleted)
    }

    @Test func discardingRestoresTrackedFilesRemovesUntrackedOnesAndNeverReachesOutside() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        try Shell.sh(
            """
            cd '\(repo)' && echo keep > '\(folder.path)/outside.txt' && ln -s '\(folder.path)' link
            echo new > -new.txt && echo staged > staged.txt && git add staged.txt
            """)
        #expect(try Self.act("restore", [Array("long.txt".utf8), Array("staged.txt".utf8)], in: repo).status == 0)
        #expect(try Self.act("clean", [Array("-new.txt".utf8)], in: repo).status == 0)
        let status = try Self.status(repo)
        #expect(status.entries.map(\.path.description).sorted() == ["link", "small.txt"], "\(status.entries)")
        #expect(try String(contentsOfFile: repo + "/long.txt", encoding: .utf8) == "1\n2\n3\n")
        #expect(!FileManager.default.fileExists(atPath: repo + "/staged.txt"))

        let outside = try Self.act("restore", [Array("../outside.txt".utf8)], in: repo)
        #expect(outside.status == ReviewScriptExit.outsideRepository.rawValue, "\(outside)")
        let throughLink = try Self.act("clean", [Array("link/outside.txt".utf8)], in: repo)
        #expect(throughLink.status != 0, "\(throughLink)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/outside.txt"), "nothing outside the repository is touched")
    }

    @Test func committingTakesTheMessageExactlyAndRefusesAnEmptyIndex() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        try Shell.sh("cd '\(repo)' && git config user.name t && git config user.email t@t")
        let empty = try Self.run(ReviewScripts.commit, in: repo, input: Array("nothing".utf8))
        #expect(empty.status == ReviewScriptExit.nothingToCommit.rawValue)
        #expect(try Self.act("stage", [Array("small.txt".utf8)], in: repo).status == 0)
        let message = "Fix \"quotes\" and $(touch CANARY)\n\nSecond paragraph.\n"
        let commit = try Self.run(ReviewScripts.commit, in: repo, input: Array(message.utf8))
        #expect(commit.status == 0 && commit.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).count == 40, "\(commit)")
        #expect(try Shell.sh("cd '\(repo)' && git log -1 --format=%B") == message + "\n")
        #expect(!FileManager.default.fileExists(atPath: repo + "/CANARY"))
    }

    @Test func pushingToARemoteThatWantsCredentialsFailsAtOnceInsteadOfWaiting() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        // A real HTTP server that answers every request with 401, as a private remote does.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", "-c",
            """
            import http.server, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(401); self.send_header('WWW-Authenticate', 'Basic realm="git"'); self.end_headers()
                do_POST = do_GET
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """,
        ]
        let output = try ChildOutputPipe()
        server.standardOutput = output.forChild
        // Not the test's own stderr: a server still holding it would keep `swift test`'s pipe open.
        server.standardError = FileHandle.nullDevice
        try server.run()
        output.closeChildEnd()
        // KILL: a child of a test thread may inherit a mask that blocks TERM.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let port = String(decoding: output.reading.availableData, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        try #require(Int(port) != nil, "the HTTP server did not start")
        try Shell.sh("cd '\(repo)' && git remote add origin http://127.0.0.1:\(port)/app.git")
        let started = ContinuousClock.now
        let push = try Self.run(ReviewScripts.push, in: repo, ["origin", "main"])
        #expect(push.status == ReviewScriptExit.authenticationRequired.rawValue, "\(push)")
        #expect(push.stderr.contains("terminal prompts disabled") || push.stderr.contains("could not read Username"))
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func pushingToABareRepositoryShowsGitsProgress() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        try Shell.sh("cd '\(folder.path)' && git init -q --bare remote.git && cd '\(repo)' && git remote add origin ../remote.git")
        let push = try Self.run(ReviewScripts.push, in: repo, ["origin", "main"])
        #expect(push.status == 0, "\(push)")
        #expect(push.stderr.contains("Writing objects: 100%"), "\(push.stderr)")
        #expect(try Shell.sh("git -C '\(folder.path)/remote.git' rev-parse main").count == 41)
        var parser = GitProgressParser()
        let events = parser.consume(Array(push.stderr.utf8)) + parser.finish()
        #expect(events.contains { if case .progress(let step) = $0 { return step.phase == .writing && step.isDone } else { return false } })
    }
}
