import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileReadingTests {
    @Test(arguments: FileRoute.allCases)
    func readingFiftyMegabytesAndARangeInTheMiddleGivesTheServersBytes(route: FileRoute) async throws {
        let (path, bytes) = try FileFixtures.bigFile.get()
        let range: Range<UInt64> = 20_000_001..<23_000_018
        let (whole, middle) = try await route.withConnection { connection in
            (try await connection.readFile(path), try await connection.readFile(path, range: range))
        }
        #expect(whole.count == 50_000_000)
        #expect(whole == bytes)
        #expect(middle == Array(bytes[20_000_001..<23_000_018]))
    }

    @Test(arguments: FileRoute.allCases)
    func readingFromAnOffsetReturnsOnlyWhatAGrowingFileGained(route: FileRoute) async throws {
        let path = try FileFixtures.scratchDirectory("grow") + "/session.jsonl"
        try FileFixtures.makeFile(path, Data("first line\n".utf8))
        try await route.withConnection { connection in
            let first = try await connection.readFile(path)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("second line\n".utf8))
            try handle.close()
            #expect(try await connection.readFile(path, from: UInt64(first.count)) == Array("second line\n".utf8))
            #expect(try await connection.readFile(path, from: 1000).isEmpty)
            #expect(try await connection.readFile(path, range: 6..<10) == Array("line".utf8))
        }
    }

    @Test(arguments: FileRoute.allCases)
    func streamingDeliversTheFileInOrderThroughASmallBuffer(route: FileRoute) async throws {
        let (path, bytes) = try FileFixtures.bigFile.get()
        let received = try await route.withConnection { connection in
            var received: [UInt8] = []
            for try await chunk in try await connection.streamFile(path, from: 1_000_000, length: 12_345_678, bufferSize: 64 << 10) {
                received += chunk
            }
            return received
        }
        #expect(received.count == 12_345_678)
        #expect(received == Array(bytes[1_000_000..<13_345_678]))
    }

    @Test(arguments: FileRoute.allCases)
    func aStreamThatIsAbandonedLeavesTheConnectionWorking(route: FileRoute) async throws {
        let (path, _) = try FileFixtures.bigFile.get()
        try await route.withConnection { connection in
            let reader = try await connection.streamFile(path, bufferSize: 64 << 10)
            let task = Task {
                var iterator = reader.makeAsyncIterator()
                _ = try await iterator.next()
                try await Task.sleep(for: .seconds(30))
            }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            _ = await task.result
            #expect(try await connection.readFile(path, range: 0..<10).count == 10)
        }
    }
}
