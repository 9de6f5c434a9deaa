import Foundation
import Glibc
import Platform
import Testing

/// `SystemCall.readFile`, which reads known_hosts, keys, configuration and local session files.
@Suite struct LocalFileReadingTests {
    @Test func aFileIsReadWholeWhateverItsSize() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for size in [0, 1, 65_535, 65_536, 65_537, 1_000_003] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
            let path = folder + "/\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try SystemCall.readFile(path) == bytes, "a file of \(size) bytes")
        }
    }

    /// A pipe, like a `/proc` file, has no size `fstat` can give: it is read to its end, however
    /// many chunks that takes.
    @Test func aFileWhoseSizeIsNotKnownAheadIsReadToItsEnd() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let bytes = (0..<700_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            // Small writes, so that the reader meets the pipe empty between them.
            var offset = 0
            while offset < bytes.count {
                let count = min(10_000, bytes.count - offset)
                let written = bytes[offset..<(offset + count)].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                offset += written
            }
            close(fd)
        }
        writer.start()
        #expect(try SystemCall.readFile(path) == bytes)
    }

    @Test func aMissingFileIsAnOpenErrorWithItsReason() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: SystemCallError("open", code: ENOENT)) { try SystemCall.readFile(folder + "/missing") }
    }

    private static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-read-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
