import Foundation
import RWSTestSupport
import Synchronization

/// A bare git repository with enough objects for git to report progress in every phase, made once
/// per test process with `git fast-import`: `main` has ``commitCount`` commits, each adding a
/// small file; `feature` adds one more commit with `feature.txt`.
enum TestRepository {
    static let commitCount = 3000
    private static let made = Mutex<String?>(nil)

    /// The bare repository's absolute path.
    static func path() throws -> String {
        try made.withLock { path in
            if let path { return path }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rws-repo-\(UUID().uuidString.prefix(8))").path
            let bare = directory + "/source.git"
            try Shell.run("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare])
            let stream = directory + "/stream"
            try fastImportStream().write(toFile: stream, atomically: true, encoding: .utf8)
            try Shell.sh("cd '\(bare)' && /usr/bin/git fast-import --quiet < '\(stream)'")
            path = bare
            return bare
        }
    }

    private static func fastImportStream() -> String {
        var out = ""
        out.reserveCapacity(commitCount * 300)
        for index in 1...commitCount {
            let content = "file \(index)\n" + String(repeating: "line \(index * 7919 % 10007)\n", count: 8)
            out += "blob\nmark :\(index)\ndata \(content.utf8.count)\n\(content)\n"
        }
        for index in 1...commitCount {
            let message = "commit \(index)\n"
            out += "commit refs/heads/main\nmark :\(commitCount + index)\n"
            out += "committer Test <test@example.com> \(1_700_000_000 + index) +0000\ndata \(message.utf8.count)\n\(message)"
            if index > 1 { out += "from :\(commitCount + index - 1)\n" }
            out += "M 100644 :\(index) files/f\(index).txt\n\n"
        }
        let feature = "feature\n"
        out += "blob\nmark :\(3 * commitCount)\ndata \(feature.utf8.count)\n\(feature)\n"
        out += "commit refs/heads/feature\ncommitter Test <test@example.com> 1800000000 +0000\ndata 8\nfeature\n"
        out += "from :\(2 * commitCount)\nM 100644 :\(3 * commitCount) feature.txt\n\n"
        return out
    }
}
