import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// Long lists of paths go to the box on stdin: one exec request carries at most ~35 KB (libssh2)
/// and dropbear drops the connection over 9,000 bytes.
@Suite struct LongArgumentListTests {
    @Test(arguments: ServerKind.allCases)
    func sevenHundredRangesOfLongPathsAreReadInOneCommand(kind: ServerKind) async throws {
        // 700 paths of ~150 bytes: ~110 KB of quoted arguments.
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let folder = sandbox.root + "/" + String(repeating: "long-folder-name-", count: 6)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var ranges: [RemoteByteRange] = []
        for index in 0..<700 {
            let path = folder + "/session-\(index)-" + String(repeating: "n", count: 20) + ".jsonl"
            try Data("line \(index)\n".utf8).write(to: URL(fileURLWithPath: path))
            ranges.append(RemoteByteRange(path: path, offset: 0, length: 100))
        }
        let contents = try await sandbox.server.withConnection { connection in
            try await RemoteByteReader(host: connection).read(ranges).contents
        }
        #expect(contents.count == 700)
        #expect(contents.enumerated().allSatisfy { String(decoding: $1, as: UTF8.self) == "line \($0)\n" })
    }
}
