import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// A connection nobody holds closes itself; handles in use hold their connection.
@Suite struct ConnectionLifetimeTests {
    @Test(arguments: ServerKind.allCases)
    func hundredsOfDroppedConnectionsGiveBackTheirThreadsAndDescriptors(kind: ServerKind) async throws {
        // 500 under RWS_SOAK=full (scripts/soak-tests), 100 in the suite.
        let connections = SoakLength.count(full: 500, sample: 100)
        let server = try SharedTestServer.get(kind)
        // One connection first, so that what the process opens once (OpenSSL's state) is in the baseline.
        await (try await server.connect()).close()
        let before = try await ProcessResources.settle { $0.ioThreads == 0 }
        let descriptorsBefore = ProcessResources.descriptorTargets()
        // Dropbear closes a sixth simultaneous unauthenticated connection from one address (docs/servers.md).
        let width = kind == .dropbear ? 5 : 10
        for batch in 0..<(connections / width) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<width {
                    group.addTask {
                        // Connected, used, and dropped without close().
                        let connection = try await server.connect()
                        _ = try await connection.run("true")
                    }
                }
                try await group.waitForAll()
            }
            // Each batch's connections close themselves once dropped: threads never pile up.
            #expect(ProcessResources.sample().ioThreads <= before.ioThreads + 2 * width, "batch \(batch)")
        }
        let after = try await ProcessResources.settle { $0.ioThreads == before.ioThreads && $0.descriptors <= before.descriptors }
        #expect(after.ioThreads == before.ioThreads, "I/O threads: \(before) -> \(after)")
        #expect(
            after.descriptors <= before.descriptors,
            "descriptors: \(before) -> \(after), new: \(ProcessResources.descriptorTargets().subtracting(descriptorsBefore).sorted())")
    }

    /// A program may exit right after `close()`: by then the connection's thread has exited, its
    /// OpenSSL teardown included (an exit racing it was a double free once) — for every caller of
    /// `close()`, several at once included.
    @Test(arguments: ServerKind.allCases, [1, 3])
    func closeReturnsOnlyOnceTheConnectionsThreadHasExited(kind: ServerKind, closers: Int) async throws {
        let server = try SharedTestServer.get(kind)
        let before = try await ProcessResources.settle { $0.ioThreads == 0 }
        try #require(before.ioThreads == 0, "I/O threads of earlier tests still run: \(before)")
        for round in 0..<20 {
            let connection = try await server.connect()
            #expect(ProcessResources.sample().ioThreads == 1, "round \(round)")
            let threadsSeen = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<closers {
                    group.addTask {
                        await connection.close()
                        return ProcessResources.sample().ioThreads
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(threadsSeen == Array(repeating: 0, count: closers), "round \(round): I/O threads right after each close()")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aShellKeepsItsDroppedConnectionOpenUntilTheShellIsDropped(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let before = try await ProcessResources.settle { $0.ioThreads == 0 }
        var shell: InteractiveShell? = try await server.connect().openShell()
        try await shell!.send("echo still-$((40+2))\n")
        var seen = ""
        for try await chunk in shell!.output {
            seen += String(decoding: chunk, as: UTF8.self)
            if seen.contains("still-42") { break }
        }
        #expect(seen.contains("still-42"))
        #expect(ProcessResources.sample().ioThreads == before.ioThreads + 1)
        shell = nil
        let after = try await ProcessResources.settle { $0.ioThreads == before.ioThreads }
        #expect(after.ioThreads == before.ioThreads)
    }

    @Test(arguments: ServerKind.allCases)
    func aStreamingCommandKeepsItsDroppedConnectionOpenWhileItsOutputIsRead(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let output = try await server.connect().stream("for i in 1 2 3; do echo $i; sleep 0.05; done").output
        var text = ""
        for try await event in output {
            if case .stdout(let bytes) = event { text += String(decoding: bytes, as: UTF8.self) }
        }
        #expect(text == "1\n2\n3\n")
    }

    /// A lost connection gives back its socket and wake-up pipe when it is torn down, not when the
    /// next one is adopted: while it waits to reconnect, it holds nothing it opened. (Before, the
    /// pipe lived on, and a reconnect briefly held both connections' descriptors.)
    @Test(arguments: ServerKind.allCases)
    func aLostConnectionHoldsNoDescriptorWhileItWaitsToReconnect(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy)
        configuration.reconnect = ReconnectPolicy(
            initialDelay: .seconds(3), maximumDelay: .seconds(3), jitter: 0, waitForConnection: .seconds(20))
        _ = try await ProcessResources.settle { $0.ioThreads == 0 }
        let before = ProcessResources.descriptorTargets()
        let connection = try await SSHConnection.connect(configuration)
        _ = try await connection.run("true")
        let connected = ProcessResources.descriptorTargets()
        proxy.cutAll()
        let waiting = try await Eventually.holds(within: .seconds(10)) {
            if case .reconnecting = connection.state { true } else { false }
        }
        try #require(waiting, "the connection never began to reconnect: \(connection.state)")
        // Not the runtime's timer (made at its first sleep, kept) or the listing's own descriptor.
        let held = ProcessResources.descriptorTargets().subtracting(before).filter { !$0.hasSuffix("[timerfd]") && !$0.hasSuffix(" -> ?") }
        #expect(held.isEmpty, "still open while reconnecting: \(held.sorted()), of \(connected.subtracting(before).sorted())")
        #expect(try await connection.run("echo back").stdoutText == "back\n")
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func closingStopsRunningCommandsAndShellsOnTheBox(kind: ServerKind) async throws {
        let background = RemoteProcesses.uniqueSeconds(), foreground = RemoteProcesses.uniqueSeconds()
        let inShell = RemoteProcesses.uniqueSeconds()
        let connection = try await SharedTestServer.get(kind).connect()
        let running = Task { try await connection.run("sleep \(background) & sleep \(foreground)") }
        let shell = try await connection.openShell()
        try await shell.send("sleep \(inShell)\n")
        try await RemoteProcesses.waitUntil {
            !RemoteProcesses.matching("sleep \(foreground)").isEmpty && !RemoteProcesses.matching("sleep \(inShell)").isEmpty
        }
        await connection.close()
        await #expect(throws: SSHError.connectionClosed) { try await running.value }
        for seconds in [background, foreground, inShell] {
            #expect(RemoteProcesses.matching("sleep \(seconds)") == [], "sleep \(seconds) survived close()")
        }
    }
}

/// This process's I/O threads (named "rws-ssh-io") and open file descriptors, read from /proc.
/// The runtime's timer descriptors are not counted: it makes one per clock at its first sleep on
/// that clock and keeps it (a second one, made during a run, failed the count once in ~15 runs).
/// A thread already in the kernel's exit (`PF_EXITING` in its flags) is not counted: it runs no
/// more code of its own, and `pthread_join` returns while /proc may still list it (seen after 5 %
/// of 200,000 joins here, each with `PF_EXITING`; the race finder met it once).
struct ProcessResources: CustomStringConvertible {
    var ioThreads: Int
    var descriptors: Int

    var description: String { "\(ioThreads) I/O threads, \(descriptors) fds" }

    static func sample() -> ProcessResources {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let ioThreads = tasks.filter { task in
            // "TID (NAME) STATE PPID PGRP SESSION TTY TPGID FLAGS …"; NAME may hold spaces and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let nameEnd = stat.range(of: ") ", options: .backwards)
            else { return false }
            let fields = stat[nameEnd.upperBound...].split(separator: " ")
            let exiting = fields.count > 6 && (UInt(fields[6]) ?? 0) & 0x4 != 0  // PF_EXITING
            return stat[..<nameEnd.lowerBound].contains("(rws-ssh-io") && !exiting
        }.count
        let descriptors = descriptorTargets().filter { !$0.hasSuffix(" -> anon_inode:[timerfd]") }.count
        return ProcessResources(ioThreads: ioThreads, descriptors: descriptors)
    }

    /// What each open descriptor is ("7 -> socket:[1234]"), for failure messages.
    static func descriptorTargets() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(names.map { "\($0) -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "?") })
    }

    /// Samples until `done` holds or 10 s passed (teardown runs on each connection's own thread).
    static func settle(_ done: (ProcessResources) -> Bool) async throws -> ProcessResources {
        let deadline = ContinuousClock.now + .seconds(10)
        var current = sample()
        while !done(current), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            current = sample()
        }
        return current
    }
}
