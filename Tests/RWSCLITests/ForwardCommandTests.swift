import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Synchronization
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
        let (outcome, port) = try await Self.runUntilURL(arguments, home: home) { child, local in
            #expect(try EchoServer.roundTrip(port: local, Array("before".utf8)) == Array("before".utf8))
            // One connection carried when the link goes: the box's server ends its end with the session.
            let held = try SystemCall.socket(for: SystemCall.loopback(port: local))
            defer { SystemCall.close(held) }
            _ = try SystemCall.connect(held, to: SystemCall.loopback(port: local))
            #expect(Self.within(10) { echo.openConnections == 1 }, "the held connection never reached the box's port")
            proxy.cutAll()
            #expect(Self.within(10) { echo.openConnections == 0 }, "the box kept the carried connection open after the cut")
            // A connection made while the link is down waits for the reconnect.
            #expect(try EchoServer.roundTrip(port: local, Array("after".utf8)) == Array("after".utf8))
            try SystemCall.kill(child, SIGINT)
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stdout == "http://127.0.0.1:\(port ?? 0)\n")
        #expect(outcome.stderr.contains("link lost") && outcome.stderr.contains("link back"), "\(outcome.stderr)")
        let local = try #require(port)
        #expect(throws: SystemCallError.self) { _ = try EchoServer.roundTrip(port: local, [1]) }
        #expect(echo.acceptedConnections == 3)
    }

    /// Whether `condition` holds within `seconds`, looking every 50 ms (on rws's waiting thread).
    private static func within(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    /// With few file descriptors, connections beyond them wait or fail with a message that says
    /// why; rws does not crash (it stopped on `cannot create the wake-up pipe`, SIGILL) nor spin,
    /// and carries connections again once descriptors are free.
    @Test func runningOutOfDescriptorsFailsConnectionsWithAReasonAndTheForwardGoesOn() async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let echo = try EchoServer()
        defer { echo.stop() }
        let server = try SharedTestServer.get(.default)
        let arguments = ["forward"] + server.rwsFlags + ["0:\(echo.port)"]
        let port = Mutex<Int?>(nil)
        let outcome = try await RWSBinary.run(
            arguments, home: home,
            until: { stdout in
                let found = stdout.firstMatch(of: /^http:\/\/127\.0\.0\.1:([0-9]+)\n/).flatMap { Int($0.1) }
                port.withLock { $0 = found }
                return found != nil
            }, within: .seconds(20), openFiles: 24
        ) { child in
            let local = try #require(port.withLock { $0 })
            // 40 connections held open at once: far more than 24 descriptors allow.
            var held: [Int32] = []
            for _ in 0..<40 {
                let fd = try SystemCall.socket(for: SystemCall.loopback(port: local))
                _ = try SystemCall.connect(fd, to: SystemCall.loopback(port: local))
                held.append(fd)
            }
            Thread.sleep(forTimeInterval: 2)
            for fd in held { SystemCall.close(fd) }
            // Descriptors free again: a connection is carried, once rws has worked through the
            // backlog of the closed ones (on a loaded machine a try a second later was reset).
            let deadline = ContinuousClock.now + .seconds(15)
            var after: [UInt8]?
            while after == nil, ContinuousClock.now < deadline {
                after = try? EchoServer.roundTrip(port: local, Array("after".utf8))
                if after == nil { Thread.sleep(forTimeInterval: 0.2) }
            }
            #expect(after == Array("after".utf8))
            try SystemCall.kill(child, SIGINT)
        }
        #expect(outcome.killedBy == nil, "rws crashed: \(outcome.stderr)")
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("no file descriptor is left"), "\(outcome.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func reverseCarriesConnectionsMadeOnTheBoxHereThroughACutLinkAndCtrlCStopsIt(kind: ServerKind) async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let echo = try EchoServer()  // a service here that Claude Code on the box should reach
        defer { echo.stop() }
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let arguments = ["forward"] + (try server.rwsFlags(through: proxy)) + ["-R", "0:\(echo.port)"]
        let (outcome, port) = try await Self.runUntilURL(arguments, home: home) { child, onBox in
            #expect(try EchoServer.roundTrip(port: onBox, Array("before".utf8)) == Array("before".utf8))
            proxy.cutAll()
            // The box listens again once the link is back.
            let deadline = ContinuousClock.now + .seconds(20)
            var after: [UInt8]?
            while after != Array("after".utf8), ContinuousClock.now < deadline {
                after = try? EchoServer.roundTrip(port: onBox, Array("after".utf8))
                if after != Array("after".utf8) { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(after == Array("after".utf8))
            try SystemCall.kill(child, SIGINT)
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stdout == "http://127.0.0.1:\(port ?? 0)\n")
        #expect(outcome.stderr.contains("to 127.0.0.1:\(echo.port) here") && outcome.stderr.contains("link back"), "\(outcome.stderr)")
        #expect(echo.acceptedConnections == 2)
    }

    @Test func reverseToAPortTakenOnTheBoxSaysTheBoxRefused() async throws {
        let taken = try EchoServer()
        defer { taken.stop() }
        let outcome = try await RWSBinary.run(
            ["forward"] + SharedTestServer.get().rwsFlags + ["-R", "\(taken.port):9"], home: NSTemporaryDirectory())
        #expect(outcome.status == 1 && outcome.stderr.contains("the box refused"), "\(outcome.status) \(outcome.stderr)")
    }

    // One case at a time: this machine is the box, so a second `--auto` would forward this one's
    // forwards and this one the second's, a new listener every round.
    @Test(.serialized, arguments: ServerKind.allCases)
    func autoForwardsAPortThatStartsListeningAndClosesItWhenItStops(kind: ServerKind) async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let base = home + "/auto"
        let child = try Spawn.start(
            RWSBinary.path, ["forward"] + (try SharedTestServer.get(kind).rwsFlags) + ["--auto"],
            environment: ["HOME=\(home)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"], stdoutPath: base + ".out",
            stderrPath: base + ".err")
        defer { _ = try? SystemCall.kill(child, SIGKILL) }
        let output = { (path: String) in (try? String(contentsOfFile: base + path, encoding: .utf8)) ?? "" }
        try await Self.wait(for: "watching", in: { output(".err") })
        let echo = try EchoServer()  // the dev server the agent starts
        let line = try await Self.wait(for: "\t\(echo.port) (", in: { output(".out") })
        let local = try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\t/).flatMap { Int($0.1) })
        let back = try await Blocking.onThread { try EchoServer.roundTrip(port: local, Array("auto".utf8)) }
        #expect(back == Array("auto".utf8))
        echo.stop()
        try await Self.wait(for: "\(echo.port) stopped listening", in: { output(".err") })
        // The round that saw the echo server stop also listed rws's own forward of it: not forwarded
        // again. (A port another test's server held can come back here on its own number, once free.)
        let lines = output(".out").matches(of: /http:\/\/127\.0\.0\.1:([0-9]+)\t([0-9]+)( \(rws\))?/)
            .map { (local: $0.1, box: $0.2, ofRWS: $0.3 != nil) }
        let again = lines.filter { line in line.ofRWS && lines.contains { $0.local == line.box && $0.box != line.box } }
        #expect(again.isEmpty, "\(output(".out"))")
        // Another test's listener may take the closed number: whoever listens there now (a known owner), not rws.
        let holders = try await SharedTestServer.get(kind).withConnection { try await $0.listeningPorts() }.filter { $0.port == local }
        #expect(holders.allSatisfy { $0.process != nil && $0.process?.pid != Int(child) }, "\(holders)")
        if holders.isEmpty { #expect(throws: SystemCallError.self) { _ = try EchoServer.roundTrip(port: local, [1]) } }
        try SystemCall.kill(child, SIGINT)
        let status = try await Blocking.onThread { () -> Int32? in
            var status: Int32 = 0
            return waitpid(child, &status, 0) == child ? status : nil
        }
        #expect(status.map { ($0 >> 8) & 0xFF } == 130, "\(output(".err"))")
    }

    @Test(arguments: ServerKind.allCases)
    func portsListsAListenerWithItsProcessAsLinesAndAsJSON(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let flags = try SharedTestServer.get(kind).rwsFlags
        let lines = try await RWSBinary.run(["ports"] + flags, home: NSTemporaryDirectory())
        #expect(lines.status == 0)
        #expect(
            lines.stdout.contains("\n\(echo.port)\t127.0.0.1\t\(getpid())\t") || lines.stdout.hasPrefix("\(echo.port)\t"), "\(lines.stdout)"
        )
        let json = try await RWSBinary.run(["ports"] + flags + ["--json"], home: NSTemporaryDirectory())
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let mine = try #require(rows.first { $0["port"] as? Int == echo.port })
        #expect(mine["address"] as? String == "127.0.0.1" && mine["pid"] as? Int == Int(getpid()), "\(json.stdout)")
    }

    /// Runs rws until its first stdout line is `http://127.0.0.1:PORT`, then `action`
    /// with its PID and PORT; returns the outcome and the port.
    static func runUntilURL(
        _ arguments: [String], home: String, _ action: @escaping @Sendable (pid_t, Int) throws -> Void
    ) async throws -> (RWSBinary.Outcome, Int?) {
        let port = Mutex<Int?>(nil)
        let ready: @Sendable (String) -> Bool = { stdout in
            let found = stdout.firstMatch(of: /^http:\/\/127\.0\.0\.1:([0-9]+)\n/).flatMap { Int($0.1) }
            port.withLock { $0 = found }
            return found != nil
        }
        let outcome = try await RWSBinary.run(arguments, home: home, until: ready, within: .seconds(20)) { child in
            try action(child, try #require(port.withLock { $0 }))
        }
        return (outcome, port.withLock { $0 })
    }

    /// Waits up to 15 s until `read()` contains `text`; returns the line holding it.
    @discardableResult
    private static func wait(for text: String, in read: () -> String) async throws -> String {
        let line = try await Eventually.value(within: .seconds(15)) { read().split(separator: "\n").first { $0.contains(text) } }
        guard let line else { throw ScriptCase.Failure("never saw \(text.debugDescription); got: \(read())") }
        return String(line)
    }

    @Test func aPortTakenHereIsAUsageErrorNamingIt() async throws {
        let taken = try EchoServer()
        defer { taken.stop() }
        let outcome = try await RWSBinary.run(
            ["forward"] + SharedTestServer.get().rwsFlags + ["\(taken.port):22"], home: NSTemporaryDirectory())
        #expect(
            outcome.status == 64 && outcome.stderr.contains("127.0.0.1:\(taken.port)") && outcome.stderr.contains("in use"),
            "\(outcome.stderr)")
    }

    @Test(arguments: [["3000", "--auto"], [], ["--auto", "--to", "db"], ["-R", "--auto"]])
    func aPortOrAutoIsNeededAndAutoTakesNoTarget(arguments: [String]) async throws {
        let outcome = try await RWSBinary.run(["forward", "--host", "127.0.0.1"] + arguments, home: NSTemporaryDirectory())
        #expect(outcome.status == 64, "\(outcome.stderr)")
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
