import Foundation
import RWSTestSupport
import Testing

/// `rws files [PROJECT] QUERY`: ranked paths of a project on the box, as lines or JSON.
@Suite(.timeLimit(.minutes(2))) struct FilesCommandTests {
    /// A box on the shared server of `kind` whose project `app` is a git repository.
    private static func filesBox(_ kind: ServerKind) throws -> TestBox {
        let box = try TestBox(kind)
        let repo = box.project
        try FileManager.default.createDirectory(atPath: repo + "/Sources/Find", withIntermediateDirectories: true)
        for name in ["Sources/Find/FileFinder.swift", "README.md", "-dash.txt", "new\nline.txt"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: repo + "/" + name))
        }
        try Shell.sh("cd '\(repo)' && git init -q && git add -A && printf x > \"$(printf 'caf\\351.bin')\"")
        return box
    }

    @Test(arguments: ServerKind.allCases)
    func theBestMatchComesFirstOnePathPerLine(kind: ServerKind) async throws {
        let box = try Self.filesBox(kind)
        defer { box.remove() }
        let (server, root, home) = (box.server, box.workspaceRoot, box.localHome)
        let outcome = await InProcessRWS.run(["files"] + server.rwsFlags + ["--workspace-root", root, "app", "ffind"], home: home)
        #expect(outcome.stdout == "Sources/Find/FileFinder.swift\n")
        #expect(outcome.status == 0)
        let all = await InProcessRWS.run(["files"] + server.rwsFlags + ["--workspace-root", root, "app", "t"], home: home)
        let lines = all.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "a newline in a name is shown neutralized: \(all.stdout)")
        #expect(lines.contains("-dash.txt") && lines.contains { $0.hasPrefix("new") && $0.hasSuffix("line.txt") })
    }

    @Test(arguments: ServerKind.allCases)
    func jsonGivesPathsScoresAndBytePositionsWithExactBytesForNonUTF8Names(kind: ServerKind) async throws {
        let box = try Self.filesBox(kind)
        defer { box.remove() }
        let (server, root, home) = (box.server, box.workspaceRoot, box.localHome)
        let outcome = await InProcessRWS.run(["files", "--json"] + server.rwsFlags + [root + "/app", "cafbin"], home: home)
        let matches = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(matches.count == 1)
        #expect(matches.first?["pathBase64"] as? String == Data(Array("caf".utf8) + [0xE9] + Array(".bin".utf8)).base64EncodedString())
        #expect(matches.first?["positions"] as? [Int] == [0, 1, 2, 5, 6, 7])
        #expect(matches.first?["score"] is Int)
    }

    @Test(arguments: ServerKind.allCases)
    func aMissingProjectFailsWithExitOneAndNoQueryIsAUsageError(kind: ServerKind) async throws {
        let box = try Self.filesBox(kind)
        defer { box.remove() }
        let (server, root, home) = (box.server, box.workspaceRoot, box.localHome)
        let missing = await InProcessRWS.run(["files"] + server.rwsFlags + ["--workspace-root", root, "nope", "x"], home: home)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("it is not a directory on the box"))
        let usage = await InProcessRWS.run(["files"] + server.rwsFlags, home: home)
        #expect(usage.status == 64)
    }
}
