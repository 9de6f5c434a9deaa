import Foundation
import RWSTestSupport
import Testing

@testable import SSHClient

/// The ports listening on the box, read from /proc/net/tcp and tcp6.
@Suite struct ListeningPortTests {
    @Test func procLinesBecomePortsWithTheirAddressesAndOwners() {
        let output = """
            P 812 16773333 1 node
            P 990 15890518 1 Web Content
            L tcp 0100007F:0BB8 16773333
            L tcp 00000000:0016 111
            L tcp6 00000000000000000000000001000000:1538 15890518
            L tcp6 00000000000000000000000000000000:0016 112
            L tcp6 0000000000000000FFFF00000100007F:1F90 113
            L tcp 0100007F:0BB8 16773333
            garbage line
            L tcp ZZZZ:0BB8 1
            """
        #expect(
            ListeningPortScript.parse(output) == [
                ListeningPort(port: 22, address: "0.0.0.0"),
                ListeningPort(port: 22, address: "::"),
                ListeningPort(port: 3000, address: "127.0.0.1", process: .init(pid: 812, command: "node")),
                ListeningPort(port: 5432, address: "::1", process: .init(pid: 990, command: "Web Content")),
                ListeningPort(port: 8080, address: "::ffff:127.0.0.1"),
            ])
    }

    /// A big-endian box (s390x, some POWER and MIPS) prints each address word the other way
    /// round; the listing says which order its box uses.
    @Test func aBigEndianBoxsAddressesAreReadInItsOrder() {
        let output = """
            E 256
            L tcp 7F000001:0BB8 1
            L tcp 0A000005:0016 2
            L tcp6 00000000000000000000000000000001:1538 3
            L tcp6 00000000000000000000FFFF7F000001:1F90 4
            """
        #expect(
            ListeningPortScript.parse(output) == [
                ListeningPort(port: 22, address: "10.0.0.5"),
                ListeningPort(port: 3000, address: "127.0.0.1"),
                ListeningPort(port: 5432, address: "::1"),
                ListeningPort(port: 8080, address: "::ffff:127.0.0.1"),
            ])
        #expect(ListeningPortScript.parse("E 1\nL tcp 0100007F:0BB8 1") == [ListeningPort(port: 3000, address: "127.0.0.1")])
    }

    /// A socket several processes hold (a pre-forking server's workers, a child between its fork
    /// and its exec) is shown with the one whose parent holds none of it, whatever order /proc gave.
    @Test func aSharedSocketIsShownWithTheProcessWhoseParentDoesNotHoldIt() {
        let output = """
            P 10021 500 9999 nginx
            P 10020 500 9999 nginx
            P 9999 500 1 nginx
            P 100003 600 99998 python3
            P 99998 600 40 node
            P 7 700 1 a
            P 5 700 2 b
            L tcp 00000000:0050 500
            L tcp 0100007F:0BB8 600
            L tcp 0100007F:0BB9 700
            """
        #expect(
            ListeningPortScript.parse(output).map { "\($0.port) \($0.process?.pid ?? 0) \($0.process?.command ?? "")" } == [
                "80 9999 nginx", "3000 99998 node", "3001 5 b",
            ])
    }

    @Test(arguments: [("0.0.0.0", "127.0.0.1", true), ("::", "127.0.0.1", true), ("::1", "::1", true), ("10.0.0.5", "127.0.0.1", false)])
    func aPortIsForwardedToTheLoopbackItListensOn(address: String, host: String, reachable: Bool) {
        let port = ListeningPort(port: 3000, address: address)
        #expect(port.forwardingHost == host && port.isReachableFromTheBox == reachable)
    }

    @Test(arguments: ServerKind.allCases)
    func aListenerOfThisProcessIsListedWithItsOwner(kind: ServerKind) async throws {
        let listener = try EchoServer()
        defer { listener.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            let ports = try await connection.listeningPorts()
            let mine = try #require(ports.first { $0.port == listener.port }, "\(ports)")
            #expect(mine.address == "127.0.0.1")
            #expect(mine.process?.pid == Int(getpid()))
            #expect(mine.process?.command == String(ProcessInfo.processInfo.processName.prefix(15)))
        }
    }
}
