import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Many commands at once on one connection. Each test has a server of its own: on dropbear the
/// only other accepted outcome is its documented abort (``DropbearChannelRace``), read from that
/// server's log.
@Suite struct ConcurrencyTests {
    @Test(arguments: ServerKind.allCases)
    func fiftySleepsOnOneConnectionRunAtOnce(kind: ServerKind) async throws {
        // Dropbear's channel limit (1000) is fixed when it is built; sshd's is raised for this test.
        let server = try TestSSHServer(kind, .init(maxSessions: kind == .openssh ? 64 : nil))
        defer { server.stop() }
        let race = DropbearChannelRace(server)
        try await race.outcome {
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
    }

    @Test(arguments: ServerKind.allCases)
    func twoHundredCommandsAtOnceAllSucceedAgainstTheDefaultSessionLimit(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let race = DropbearChannelRace(server)
        let outputs = try await race.outcome {
            try await server.withConnection { connection in
                try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<200 { group.addTask { try await connection.run("echo \(index)").stdoutText } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
            }
        }
        if let outputs { #expect(outputs == Set((0..<200).map { "\($0)\n" })) }
    }

    @Test(arguments: ServerKind.allCases)
    func anInteractiveCommandKeepsAnsweringWhileShortCommandsRun(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let race = DropbearChannelRace(server)
        try await race.outcome {
            try await server.withConnection { connection in
                let interactive = try connection.stream("while read line; do echo \"got $line\"; done")
                var replies = interactive.output.makeAsyncIterator()
                async let shorts = withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<40 { group.addTask { try await connection.run("echo \(index)").stdoutText == "\(index)\n" } }
                    return try await group.allSatisfy { $0 }
                }
                for round in 0..<20 {
                    try await interactive.write("ping \(round)\n")
                    let reply = try await replies.next()
                    #expect(reply == .stdout(Array("got ping \(round)\n".utf8)))
                }
                let allShortsAnswered = try await shorts
                #expect(allShortsAnswered)
                try await interactive.closeInput()
                let end = try await replies.next()
                #expect(end == nil)
                #expect(try await interactive.exitStatus() == .exited(0))
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aSlowReaderPausesOnlyItsOwnCommand(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
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
