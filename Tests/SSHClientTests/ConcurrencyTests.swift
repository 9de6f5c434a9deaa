import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct ConcurrencyTests {
    @Test func fiftySleepsOnOneConnectionRunAtOnce() async throws {
        let server = try TestSSHServer(.init(maxSessions: 64))
        defer { server.stop() }
        try await server.withConnection(maxChannels: 64) { connection in
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: ExitStatus.self) { group in
                for _ in 0..<50 { group.addTask { try await connection.run("sleep 1").status } }
                for try await status in group { #expect(status == .exited(0)) }
            }
            // Serialised they would take 50 s; in parallel about one, plus channel set-up.
            #expect(ContinuousClock.now - start < .seconds(6))
        }
    }

    @Test func twoHundredCommandsAtOnceAllSucceedAgainstTheDefaultSessionLimit() async throws {
        try await SharedTestServer.get().withConnection { connection in
            let outputs = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 { group.addTask { try await connection.run("echo \(index)").stdoutText } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(outputs == Set((0..<200).map { "\($0)\n" }))
        }
    }

    @Test func anInteractiveCommandKeepsAnsweringWhileShortCommandsRun() async throws {
        try await SharedTestServer.get().withConnection { connection in
            let interactive = try connection.stream("while read line; do echo \"got $line\"; done")
            var replies = interactive.output.makeAsyncIterator()
            async let shorts = withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<40 { group.addTask { try await connection.run("echo \(index)").stdoutText == "\(index)\n" } }
                return try await group.allSatisfy { $0 }
            }
            for round in 0..<20 {
                try await interactive.write("ping \(round)\n")
                #expect(try await replies.next() == .stdout(Array("got ping \(round)\n".utf8)))
            }
            #expect(try await shorts)
            try await interactive.closeInput()
            #expect(try await replies.next() == nil)
            #expect(try await interactive.exitStatus() == .exited(0))
        }
    }

    @Test func aSlowReaderPausesOnlyItsOwnCommand() async throws {
        try await SharedTestServer.get().withConnection { connection in
            let flood = try connection.stream("head -c 50000000 /dev/zero", bufferSize: 64 * 1024)
            var iterator = flood.output.makeAsyncIterator()
            _ = try await iterator.next()
            // The flood is not being read now; other commands must still get through.
            for index in 0..<10 {
                #expect(try await connection.run("echo \(index)").stdoutText == "\(index)\n")
            }
            var total = 0
            while let event = try await iterator.next() {
                if case .stdout(let bytes) = event { total += bytes.count }
            }
            #expect(total > 49_000_000)
            #expect(try await flood.exitStatus() == .exited(0))
        }
    }
}
