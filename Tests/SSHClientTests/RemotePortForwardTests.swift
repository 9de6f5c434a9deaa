import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// Remote port forwarding (`ssh -R`): the box's sshd listens, and each connection made to that
/// port on the box comes over its own channel to a port here, many at once; after a dropped link
/// the box is asked to listen again. The box is this machine, so "a client on the box" is a
/// connection to 127.0.0.1 at the box's port, or a command run over the connection.
@Suite(.timeLimit(.minutes(2))) struct RemotePortForwardTests {
    @Test(arguments: ServerKind.allCases)
    func manyConnectionsMadeOnTheBoxEachGetTheirOwnBytesBackFromHere(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try await connection.forwardRemote(to: echo.port)
            defer { forward.close() }
            #expect(forward.remotePort > 0 && forward.remotePort != echo.port)
            let payloads = (0..<8).map { index in TestBytes.make(256 * 1024 + index, seed: UInt64(20 + index)) }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for payload in payloads {
                    group.addTask {
                        try await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, payload) } == payload
                    }
                }
                // Commands keep working beside the listener and its channels.
                group.addTask { try await connection.run("echo beside").stdoutText == "beside\n" }
                for try await same in group { #expect(same) }
            }
            #expect(forward.acceptedConnections == 8)
            #expect(echo.acceptedConnections == 8)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aProgramOnTheBoxReachesTheServiceHere(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try await connection.forwardRemote(to: echo.port)
            defer { forward.close() }
            let script = #"exec 3<>"/dev/tcp/127.0.0.1/$1"; printf 'from the box' >&3; head -c 12 <&3"#
            let result = try await connection.run(try ShellQuoting.commandLine(["bash", "-c", script, "bash", String(forward.remotePort)]))
            #expect(result.stdoutText == "from the box", "\(result.stderrText)")
        }
    }

    @Test func aTargetNothingListensOnClosesTheBoxsConnectionAndSaysWhy() async throws {
        let unused = try EchoServer()
        unused.stop()
        _ = try await SharedTestServer.get().withConnection { connection in
            let forward = try await connection.forwardRemote(to: unused.port)
            defer { forward.close() }
            let back = try? await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, Array("hello".utf8)) }
            #expect(back?.isEmpty ?? true)
            var failures = forward.failures.makeAsyncIterator()
            let failure = try #require(await failures.next())
            #expect(failure.description.contains("127.0.0.1:\(unused.port) here") && failure.description.contains("refused"), "\(failure)")
        }
    }

    /// The port is taken on 127.0.0.1 and free on ::1: OpenSSH refuses it; dropbear agrees,
    /// listening on ::1 alone, so rws looks at who holds it and refuses it itself.
    @Test(arguments: ServerKind.allCases)
    func aPortTakenOnTheBoxIsAClearError(kind: ServerKind) async throws {
        let taken = try EchoServer()
        defer { taken.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            await #expect {
                _ = try await connection.forwardRemote(port: taken.port, to: 9)
            } throws: { error in
                "\(error)".contains("127.0.0.1:\(taken.port) on the box") && "\(error)".contains("the port is taken there")
            }
            // Nothing of the box's sshd listens there afterwards, on either loopback: dropbear
            // 2022.83 ignores the cancel of a remote forward and listens until the link ends
            // (where the box has no ::1, dropbear refuses the port as OpenSSH does: no issue).
            try await withKnownIssue("dropbear keeps listening after cancel-tcpip-forward", isIntermittent: true) {
                var left: [ListeningPort] = []
                let gone = try await Eventually.holds(within: .seconds(3), every: .milliseconds(200)) {
                    left = try await connection.listeningPorts().filter { $0.port == taken.port && $0.process?.pid != Int(getpid()) }
                    return left.isEmpty
                }
                #expect(gone, "\(left)")
            } when: {
                kind == .dropbear
            }
            // The refusal left the connection usable.
            let still = try await connection.run("echo still").stdoutText
            #expect(still == "still\n")
        }
    }

    @Test func afterCloseTheBoxStopsListening() async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        _ = try await SharedTestServer.get().withConnection { connection in
            let forward = try await connection.forwardRemote(to: echo.port)
            #expect(try await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, [7]) } == [7])
            forward.close()
            var ended = forward.failures.makeAsyncIterator()
            #expect(await ended.next() == nil)
            let closes = try await Eventually.holds(within: .seconds(20), every: .milliseconds(100)) {
                try await Blocking.onThread {
                    do {
                        _ = try EchoServer.roundTrip(port: forward.remotePort, [1], limit: .seconds(5))
                        return false
                    } catch {
                        return (error as? SystemCallError)?.code == ECONNREFUSED  // not a connection taken and left unanswered
                    }
                }
            }
            #expect(closes, "the box's port still takes connections")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func theBoxListensAgainOnTheSamePortAfterADroppedLink(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy)
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(100), waitForConnection: .seconds(30))
        let connection = try await SSHConnection.connect(configuration)
        let forward = try await connection.forwardRemote(to: echo.port)
        #expect(
            try await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, Array("before".utf8)) }
                == Array("before".utf8))
        proxy.cutAll()
        let listens = try await Eventually.holds(within: .seconds(20), every: .milliseconds(100)) {
            try await Blocking.onThread {
                (try? EchoServer.roundTrip(port: forward.remotePort, Array("after".utf8), limit: .seconds(5))) == Array("after".utf8)
            }
        }
        #expect(listens, "the box does not listen again")
        #expect(proxy.acceptedConnections >= 2)
        forward.close()
        await connection.close()
    }
}
