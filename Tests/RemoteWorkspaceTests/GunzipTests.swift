import Foundation
import RWSTestSupport
import Testing

@testable import RemoteWorkspace

/// Inflating what `gzip -c` printed on the box.
@Suite struct GunzipTests {
    static func gzip(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
        try Spawn.capture("/bin/gzip", ["-c", "-\(level)"], environment: [:], stdin: bytes).output
    }

    @Test func concatenatedMembersInflateToTheJoinedBytes() throws {
        let first = Array(String(repeating: #"{"type":"user","message":"hello"}"# + "\n", count: 20_000).utf8)
        let second = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let packed = try Self.gzip(first) + (try Self.gzip(second, level: 1)) + (try Self.gzip([]))
        #expect(try Gunzip.decompress(packed, step: "test") == first + second)
        #expect(try Gunzip.decompress([], step: "test") == [])
    }

    @Test func cutOrForeignBytesAreRefusedNotGuessed() throws {
        let packed = try Self.gzip(Array(String(repeating: "line\n", count: 10_000).utf8))
        #expect(throws: RemoteSessionError.self) { try Gunzip.decompress(Array(packed.dropLast(9)), step: "test") }
        #expect(throws: RemoteSessionError.self) { try Gunzip.decompress(Array("not gzip at all".utf8), step: "test") }
    }

    @Test(arguments: [1, 13, 4096, 1 << 20])
    func piecesOfAnySizeInflateAsTheyComeToTheSameBytes(pieceSize: Int) throws {
        let first = Array(String(repeating: #"{"type":"assistant","text":"streamed"}"# + "\n", count: 30_000).utf8)
        let second = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 9) }
        let packed = try Self.gzip(first) + (try Self.gzip(second, level: 1))
        let stream = GunzipStream(step: "test")
        var output: [UInt8] = []
        var pieces = 0

        for start in stride(from: 0, to: packed.count, by: pieceSize) {
            try stream.feed(Array(packed[start..<min(packed.count, start + pieceSize)])) {
                output += $0
                pieces += 1
            }
        }
        try stream.finish()

        #expect(output == first + second)
        #expect(pieces > 1)
    }

    @Test func aStreamCutInsideAMemberIsRefusedAtItsEnd() throws {
        let packed = try Self.gzip(Array(String(repeating: "line\n", count: 10_000).utf8))
        let stream = GunzipStream(step: "test")
        try stream.feed(Array(packed.dropLast(9))) { _ in }
        #expect(throws: RemoteSessionError.self) { try stream.finish() }
    }
}
