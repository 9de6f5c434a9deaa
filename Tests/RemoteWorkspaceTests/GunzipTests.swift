import Foundation
import Testing

@testable import RemoteWorkspace

/// Inflating what `gzip -c` printed on the box.
@Suite struct GunzipTests {
    static func gzip(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-\(level)"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let packed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](packed)
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
}
