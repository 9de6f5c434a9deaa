import Testing

@testable import SSHClient

/// What `uploadDirectory` asks the box to do with a tree's folders: few commands, in an order that
/// works for folders that cannot be entered once their mode is set.
@Suite struct TreeFinishingArgumentsTests {
    @Test func pathsAreCutIntoRunsThatFitACommandLineInOrder() {
        let paths = (0..<100).map { "/tmp/tree/" + String(repeating: "x", count: $0 < 10 ? 88 : 87) + "\($0)" }  // 100 bytes each

        let runs = SSHConnection.runs(of: paths, limit: 1_000)

        #expect(runs.joined().elementsEqual(paths))
        #expect(runs.allSatisfy { run in run.reduce(0) { $0 + $1.utf8.count + 1 } <= 1_000 })
        #expect(runs.count == 10)
        #expect(SSHConnection.runs(of: []).isEmpty)
    }

    @Test func foldersShareOneTouchPerTimeAndOneChmodPerRunOfAModeDeepestFirst() {
        func folder(_ relative: String, _ permissions: UInt32, _ modified: Int) -> SSHConnection.LocalEntry {
            .init(relative: relative, kind: .directory, size: 0, permissions: permissions, modified: modified, linkTarget: "")
        }
        let root = folder("", 0o755, 200)
        let tree = [
            folder("a", 0o755, 100), folder("a/locked", 0o600, 100), folder("a/locked/in", 0o755, 100),
            .init(relative: "a/f", kind: .file, size: 1, permissions: 0o644, modified: 5, linkTarget: ""), folder("b", 0o755, 100),
        ]

        let words = SSHConnection.timesAndModes(root: root, tree, in: "/p").map(\.text)

        #expect(
            words == [
                "t", "100", "4", "/p/b", "/p/a/locked/in", "/p/a/locked", "/p/a",
                "t", "200", "1", "/p",
                "m", "755", "2", "/p/b", "/p/a/locked/in",
                "m", "600", "1", "/p/a/locked",
                "m", "755", "2", "/p/a", "/p",
            ])
    }
}

extension RemoteScript.Argument {
    fileprivate var text: String {
        switch self {
        case .word(let word): word
        case .path(let path): path
        }
    }
}
