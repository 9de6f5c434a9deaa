import Foundation
import Platform
import RWSTestSupport
import Synchronization

/// The fault soak: the `rws` command itself, as a user runs it, through a link that is
/// reset and black-holed over and over (``FaultProxy``): a `history --follow` of a growing
/// session, a `shell --persist` in a terminal (tmux) typed into, a `forward` carrying a
/// connection a second, a `watch` of hooks reporting every two seconds, and a stream of
/// `exec --timeout` commands. Passes when every follow line and watch event arrived once and in
/// order, every command completed or was reported stopped (its processes checked gone) or lost
/// under its PID, the persistent shell is the same shell at the end, the forward carried every
/// connection once the faults ended, nothing of the soak is left on the box, and the four
/// long-lived rws processes' descriptors, threads and memory stayed flat.
enum FaultSoak {
    /// What the lanes share: the server, the proxy, and how to run rws through it.
    struct Context: Sendable {
        let server: TestSSHServer
        let proxy: FaultProxy
        let rws: String
        let home: String
        let flags: [String]
        let options: FaultSoakOptions
        /// Names every process and file of this run on the box.
        let marker = "rws-fault-soak-\(ProcessInfo.processInfo.processIdentifier)"
        let start = ContinuousClock.now

        var end: ContinuousClock.Instant { start + .seconds(options.duration) }
        /// When the faults stop.
        var quiet: ContinuousClock.Instant { end - .seconds(options.quietSeconds) }
    }

    static func run(_ options: FaultSoakOptions) async throws -> Bool {
        let rws = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("rws").path
        guard FileManager.default.isExecutableFile(atPath: rws) else { throw BenchFailure("\(rws) is missing: build the rws product") }
        let server = try TestSSHServer(options.kind)
        defer { server.stop() }
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let home = server.directory.path + "/fault-soak-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let context = Context(
            server: server, proxy: proxy, rws: rws, home: home, flags: try server.rwsFlags(through: proxy), options: options)
        log(
            "fault soak: \(Int(options.duration)) s on \(options.kind); every connection reset every \(Int(options.cutEvery)) s, "
                + "black-holed \(Int(options.blackHoleLength)) s every \(Int(options.blackHoleEvery)) s; "
                + "no fault in the last \(Int(options.quietSeconds)) s")
        let ledger = FaultSoakLedger()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await faults(context, ledger: ledger) }
            group.addTask { await FaultSoakCommands.run(context, ledger: ledger) }
            group.addTask { await FaultSoakFollow.run(context, ledger: ledger) }
            group.addTask { await FaultSoakShell.run(context, ledger: ledger) }
            group.addTask { await FaultSoakForward.run(context, ledger: ledger) }
            group.addTask { await FaultSoakWatch.run(context, ledger: ledger) }
        }
        proxy.setBlackHole(false)
        let left = await leftovers(context.marker)
        for process in left { ledger.fail("left on the box: \(process)") }
        return report(context, ledger: ledger)
    }

    /// Resets every connection each `cutEvery` seconds and black-holes all traffic for
    /// `blackHoleLength` each `blackHoleEvery`, until the quiet end.
    private static func faults(_ context: Context, ledger: FaultSoakLedger) async {
        let options = context.options
        var nextCut = options.cutEvery
        var nextHole = options.blackHoleEvery
        while true {
            let next = min(nextCut, nextHole)
            guard context.start + .seconds(next + (next == nextHole ? options.blackHoleLength : 0)) < context.quiet else { return }
            try? await Task.sleep(until: context.start + .seconds(next), clock: .continuous)
            if next == nextHole {
                context.proxy.setBlackHole(true)
                log(String(format: "fault: black hole at t=%.1fs for %.0f s", seconds(since: context.start), options.blackHoleLength))
                try? await Task.sleep(for: .seconds(options.blackHoleLength))
                context.proxy.setBlackHole(false)
                ledger.update { $0.blackHoles += 1 }
                nextHole += options.blackHoleEvery
                while nextCut <= seconds(since: context.start) { nextCut += options.cutEvery }
            } else {
                context.proxy.cutAll()
                log(String(format: "fault: every connection reset at t=%.1fs", seconds(since: context.start)))
                ledger.update { $0.cuts += 1 }
                nextCut += options.cutEvery
            }
        }
    }

    /// The soak's processes still on the box (their command lines carry the marker), after
    /// giving the last ones 10 s to go.
    static func leftovers(_ marker: String, except excepted: (Substring) -> Bool = { _ in false }) async -> [String] {
        var left: [String] = []
        for _ in 0..<50 {
            left = ((try? Shell.run("/bin/ps", ["-eo", "pid=,stat=,args="])) ?? "").split(separator: "\n").filter { row in
                let fields = row.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                return fields.count == 3 && !fields[1].hasPrefix("Z") && fields[2].contains(marker) && !excepted(row)
            }.map(String.init)
            if left.isEmpty { return [] }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return left
    }

    private static func report(_ context: Context, ledger: FaultSoakLedger) -> Bool {
        let state = ledger.snapshot()
        var problems = state.failures.prefix(20).map { $0 }
        if state.failures.count > 20 { problems.append("… \(state.failures.count - 20) more failures") }
        let resources = [
            ("follow", state.followResources), ("shell", state.shellResources), ("forward", state.forwardResources),
            ("watch", state.watchResources),
        ]
        for (name, samples) in resources { problems += flatness(name, samples) }
        let summary: [String: Any] = [
            "durationSeconds": context.options.duration, "server": context.options.kind.rawValue,
            "faults": ["cuts": state.cuts, "blackHoles": state.blackHoles],
            "commands": state.commands.mapValues { $0 },
            "follow": ["written": state.followWritten, "shown": state.followShown, "exitStatus": state.followExit ?? -1],
            "shell": ["typed": state.shellTyped, "answered": state.shellAnswered, "sameShellAtTheEnd": state.shellPersisted],
            "forward": ["connections": state.forward.made, "carried": state.forward.carried],
            "watch": ["reported": state.watch.reported, "shown": state.watch.shown],
            "resources": Dictionary(uniqueKeysWithValues: resources.map { ($0.0, startPeakEnd($0.1)) }),
            "problems": problems, "verdict": problems.isEmpty ? "pass" : "FAIL",
        ]
        if let data = try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
        for problem in problems { log("problem: \(problem)") }
        return problems.isEmpty
    }

    /// A long-lived rws process's descriptors and threads: after its first 20 s, never more than
    /// the `scripts/bench soak` bounds above that first sample. The lanes sample only while the
    /// process shows that its link works, so no sample falls inside a reconnect.
    private static func flatness(_ name: String, _ samples: [ProcessResources]) -> [String] {
        guard let baseline = samples.first(where: { $0.seconds >= 20 }) else { return ["\(name): no resource sample after 20 s"] }
        return GrowthBounds(rssKiB: Int.max / 2).violations(baseline: baseline, later: samples.filter { $0.seconds > baseline.seconds })
            .map { "\(name) rws: \($0)" }
    }

    /// Descriptors, threads and resident KiB at the first sample after 20 s (the start), their
    /// peaks from then on, and at the last sample (the end). Memory is reported, not judged: a
    /// follow holds the conversation it shows, which grows with the session.
    private static func startPeakEnd(_ samples: [ProcessResources]) -> [String: Any] {
        guard let start = samples.first(where: { $0.seconds >= 20 }), let end = samples.last else { return ["samples": samples.count] }
        let later = samples.filter { $0.seconds >= start.seconds }
        func figures(_ value: KeyPath<ProcessResources, Int>) -> [Int] {
            [start[keyPath: value], later.map { $0[keyPath: value] }.max() ?? -1, end[keyPath: value]]
        }
        return ["samples": samples.count, "fds": figures(\.fds), "threads": figures(\.threads), "rssKiB": figures(\.rssKiB)]
    }

    static func log(_ line: String) { FileHandle.standardError.write(Data("fault-soak: \(line)\n".utf8)) }
}

/// Counts and findings shared by the fault soak's lanes.
final class FaultSoakLedger: Sendable {
    struct State {
        var cuts = 0
        var blackHoles = 0
        /// Commands by outcome: completed, stopped, lost (reported with its PID), not started.
        var commands: [String: Int] = [:]
        var followWritten = 0
        var followShown = 0
        var followExit: Int32?
        var shellTyped = 0
        var shellAnswered = 0
        var shellPersisted = false
        /// Connections made through the forward, and those it carried.
        var forward = (made: 0, carried: 0)
        /// Sessions the hook reported finished, and those the watch showed.
        var watch = (reported: 0, shown: 0)
        var followResources: [ProcessResources] = []
        var shellResources: [ProcessResources] = []
        var forwardResources: [ProcessResources] = []
        var watchResources: [ProcessResources] = []
        var failures: [String] = []
    }

    private let state = Mutex(State())

    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    func fail(_ message: String) {
        FaultSoak.log("FAILURE \(message)")
        state.withLock { $0.failures.append(message) }
    }

    func snapshot() -> State { state.withLock { $0 } }

    /// A failure unless a lane showed the numbers 1...`count` once each, in order, and Ctrl+C
    /// ended its rws with 130.
    func check(_ lane: String, shown: [Int], of count: Int, outcome: RWSProcess.Outcome?) {
        if shown != Array(1...max(1, count)) {
            let missing = Set(1...max(1, count)).subtracting(shown).sorted()
            fail(
                "\(lane): \(shown.count) shown of \(count), \(shown.count - Set(shown).count) repeated, missing \(missing.prefix(20)), "
                    + "in order: \(shown == shown.sorted())")
        }
        checkInterrupted(lane, outcome)
    }

    /// A failure unless Ctrl+C ended a lane's rws with 130.
    func checkInterrupted(_ lane: String, _ outcome: RWSProcess.Outcome?) {
        if outcome?.status != 130 {
            fail("\(lane): Ctrl+C ended it with \(outcome.map { "\($0.status): \($0.stderr)" } ?? "no exit")")
        }
    }
}
