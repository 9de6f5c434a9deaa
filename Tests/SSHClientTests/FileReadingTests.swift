import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileReadingTests {
    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func readingFiftyMegabytesAndARangeInTheMiddleGivesTheServersBytes(kind: ServerKind, route: FileRoute) async throws {
        let (path, bytes) = try FileFixtures.bigFile.get()
        let range: Range<UInt64> = 20_000_001..<23_000_018
        let (whole, middle) = try await route.withConnection(kind) { connection in
            (try await connection.readFile(path), try await connection.readFile(path, range: range))
        }
        #expect(whole.count == 50_000_000)
        #expect(whole == bytes)
        #expect(middle == Array(bytes[20_000_001..<23_000_018]))
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func readingFromAnOffsetReturnsOnlyWhatAGrowingFileGained(kind: ServerKind, route: FileRoute) async throws {
        let path = try FileFixtures.scratchDirectory("grow") + "/session.jsonl"
        try FileFixtures.makeFile(path, Data("first line\n".utf8))
        try await route.withConnection(kind) { connection in
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

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func streamingDeliversTheFileInOrderThroughASmallBuffer(kind: ServerKind, route: FileRoute) async throws {
        let (path, bytes) = try FileFixtures.bigFile.get()
        let received = try await route.withConnection(kind) { connection in
            var received: [UInt8] = []
            for try await chunk in try await connection.streamFile(path, from: 1_000_000, length: 12_345_678, bufferSize: 64 << 10) {
                received += chunk
            }
            return received
        }
        #expect(received.count == 12_345_678)
        #expect(received == Array(bytes[1_000_000..<13_345_678]))
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func aStreamThatIsDroppedUnreadClosesTheRemoteFileAndTheConnectionKeepsWorking(kind: ServerKind, route: FileRoute) async throws {
        let (bigPath, _) = try FileFixtures.bigFile.get()
        let path = try FileFixtures.scratchDirectory("dropped") + "/dropped.bin"
        #expect(link(bigPath, path) == 0)
        try await route.withConnection(kind) { connection in
            do {
                let reader = try await connection.streamFile(path, bufferSize: 64 << 10)
                var iterator = reader.makeAsyncIterator()
                #expect(try await iterator.next()?.isEmpty == false)
                #expect(Self.processesHolding(path) > 0, "the remote side holds the file while the reader lives")
            }
            var waited = 0
            while Self.processesHolding(path) > 0, waited < 100 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(Self.processesHolding(path) == 0, "dropping the reader closed the remote file")
            let head = try await connection.readFile(path, range: 0..<10)
            #expect(head.count == 10)
        }
    }

    /// How many open descriptors of processes on this machine (the test sshd's too) point at `path`.
    static func processesHolding(_ path: String) -> Int {
        LocalProcessTable.pids().reduce(0) { count, pid in count + LocalProcessTable.descriptors(of: pid).count { $0 == path } }
    }
}
