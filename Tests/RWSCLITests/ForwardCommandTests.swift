import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

@testable import rws

/// `rws forward`: a local port carried to a port on the box, through a dropped link, until Ctrl+C.
@Suite(.timeLimit(.minutes(1))) struct ForwardCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-fwd-home-\(UUID().uuidString.prefix(8))").path

    @Test(arguments: ServerKind.allCases)
    func connectionsReachTheBoxsPortThroughACutLinkAndCtrlCClosesIt(kind: ServerKind) async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let echo = try EchoServer()
        defer { echo.stop() }
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let arguments = ["forward"] + (try server.rwsFlags(through: proxy)) + ["0:\(echo.port)"]
        let (outcome, port) = try await EchoServer.onThread { [home] in
            var port: Int?
            let ready = { (stdout: String) -> Bool in
                port = stdout.firstMatch(of: /^http:\/\/127\.0\.0\.1:([0-9]+)\n/).flatMap { Int($0.1) }
                return port != nil
            }
            let outcome = try RWSBinary.run(arguments, home: home, until: ready, within: .seconds(20)) { child in
                let local = try #require(port)
                #expect(try EchoServer.roundTrip(port: local, Array("before".utf8)) == Array("before".utf8))
                proxy.cutAll()
                // A connection made while the link is down waits for the reconnect.
                #expect(try EchoServer.roundTrip(port: local, Array("after".utf8)) == Array("after".utf8))
                try SystemCall.kill(child, SIGINT)
            }
            return (outcome, port)
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stdout == "http://127.0.0.1:\(port ?? 0)\n")
        #expect(outcome.stderr.contains("link lost") && outcome.stderr.contains("link back"), "\(outcome.stderr)")
        let local = try #require(port)
        #expect(throws: SystemCallError.self) { _ = try EchoServer.roundTrip(port: local, [1]) }
        #expect(echo.acceptedConnections == 2)
    }

    @Test func aPortTakenHereIsAUsageErrorNamingIt() throws {
        let taken = try EchoServer()
        defer { taken.stop() }
        let outcome = try RWSBinary.run(["forward"] + SharedTestServer.get().rwsFlags + ["\(taken.port):22"], home: NSTemporaryDirectory())
        #expect(outcome.status == 64 && outcome.stderr.contains("127.0.0.1:\(taken.port)") && outcome.stderr.contains("in use"), "\(outcome.stderr)")
    }

    @Test(arguments: ["abc", "70000", "0", "3000:", ":3000", "1:2:3", "-1:3000", "70000:3000"])
    func specsThatAreNotPortsAreRefusedBeforeConnecting(spec: String) throws {
        #expect(throws: (any Error).self) { _ = try ForwardCommand.parse(spec) }
    }

    @Test(arguments: [("3000", nil, 3000), ("8080:3000", 8080, 3000), ("0:5432", 0, 5432)] as [(String, Int?, Int)])
    func specsGiveTheLocalAndRemotePorts(spec: String, local: Int?, remote: Int) throws {
        let parsed = try ForwardCommand.parse(spec)
        #expect(parsed.local == local && parsed.remote == remote)
    }
}
