import Foundation
import SSHClient
import Synchronization

/// One connection under steady mixed load for a long time: a PTY shell typed into all along,
/// execs from four lanes, SFTP stats and reads, a follow of a growing file, all interleaved and
/// paced to spread over the duration, optionally through a link cut at a period (``SoakLink``).
/// Every result is checked; the process's fds, threads and RSS are sampled. Passes only with
/// zero failures and no growth beyond ``GrowthBounds`` from the warmed-up baseline, and with
/// the descriptor count back where it was before connecting once the connection is closed.
enum SoakBenchmark {
    static let execLanes = 4

    static func run(_ env: BenchEnvironment, _ options: SoakOptions) async throws -> Bool {
        let clock = ContinuousClock.now
        try env.checkAlgorithms()
        var configuration = env.configuration
        configuration.fileTransport = .sftp
        // The runtime opens descriptors lazily (libdispatch's timer and wake-up fds, OpenSSL's):
        // a first connection that uses everything makes "before" comparable with "after close".
        try await warmUp(configuration)
        let beforeConnect = ProcessResources.sample(at: 0)
        let descriptorsBefore = ProcessResources.descriptorTargets()
        let ledger = SoakLedger(expectedSamples: Int(options.duration / options.interval) + 2)
        // A shell key at most every 20 ms (the lane sleeps that long between keys).
        let latencies = SoakLatencies(expected: [
            .exec: options.execCount, .sftpStat: options.readCount, .shellEcho: Int(options.duration / 0.020) + 1,
        ])
        let link = try SoakLink(configuration, options: options)
        // The connection lives only inside `drive`: once it returns, nothing holds it.
        let statistics: PollCounters
        do {
            statistics = try await drive(link, options, ledger: ledger, latencies: latencies)
            link.stop()
        } catch {
            link.stop()
            throw error
        }
        // The I/O thread lets go of the socket and wake-up pipe as it exits: give it a moment.
        for _ in 0..<100 where ProcessResources.sample(at: 0).fds != beforeConnect.fds {
            try await Task.sleep(for: .milliseconds(10))
        }
        let afterClose = ProcessResources.sample(at: seconds(since: clock))
        let leftOpen = ProcessResources.descriptorTargets().filter { descriptorsBefore[$0.key] != $0.value }
        if !leftOpen.isEmpty {
            let list = leftOpen.sorted { $0.key < $1.key }.map { "\($0.key) -> \($0.value)" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("soak: descriptors open after close that were not before connecting: \(list)\n".utf8))
        }
        let leftovers = try await boxLeftovers(configuration)
        for process in leftovers { ledger.fail("left on the box: \(process)") }
        return report(
            options, ledger: ledger, latencies: latencies, beforeConnect: beforeConnect, afterClose: afterClose, polls: statistics)
    }

    private static func drive(
        _ link: SoakLink, _ options: SoakOptions, ledger: SoakLedger, latencies: SoakLatencies
    ) async throws -> PollCounters {
        let connection = try await SSHConnection.connect(link.configuration)
        let shell = try await connection.openShell()
        let path = "rws-soak-\(ProcessInfo.processInfo.processIdentifier).bin"  // in the remote home
        let contents = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try await connection.writeFile(path, contents: contents)
        FileHandle.standardError.write(
            Data(
                ("soak: \(options.duration) s, \(options.execCount) execs, \(options.readCount) SFTP stats and reads, a PTY shell, "
                    + "a follow, link cut every \(options.cutEvery) s\n").utf8))
        let start = ContinuousClock.now
        let end = start + .seconds(options.duration)
        let turns = SoakExecTurns(connection)
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<execLanes {
                group.addTask {
                    await execLane(
                        connection, lane: lane, turns: turns, options: options, start: start, ledger: ledger, latencies: latencies)
                }
            }
            group.addTask {
                await readLane(
                    connection, path: path, expected: contents, options: options, start: start, ledger: ledger, latencies: latencies)
            }
            group.addTask { await shellLane(shell, start: start, until: end, ledger: ledger, latencies: latencies) }
            group.addTask { await SoakFollow.run(connection, turns: turns, until: end, ledger: ledger) }
            group.addTask { await link.cutter(options, start: start, until: end, latencies: latencies) }
            group.addTask { await sampler(options: options, start: start, until: end, ledger: ledger, latencies: latencies) }
        }
        if (try? await connection.remove(path)) == nil { ledger.fail("removing \(path)") }
        try await shell.close()
        let statistics = PollCounters(connection)
        await connection.close()
        return statistics
    }

    /// What this soak left running on the box, seen over a fresh connection.
    private static func boxLeftovers(_ configuration: SSHConnectionConfiguration) async throws -> [String] {
        let connection = try await SSHConnection.connect(configuration)
        let found = try await SoakFollow.leftovers(connection)
        await connection.close()
        return found
    }

    private static func warmUp(_ configuration: SSHConnectionConfiguration) async throws {
        let connection = try await SSHConnection.connect(configuration)
        _ = try await connection.run("true")
        _ = try await connection.stat("/")
        let shell = try await connection.openShell()
        try await shell.close()
        await connection.close()
        try await Task.sleep(for: .milliseconds(10))
    }

    /// Execs `echo I` for every I of this lane, each at its scheduled time (or at once when behind).
    private static func execLane(
        _ connection: SSHConnection, lane: Int, turns: SoakExecTurns, options: SoakOptions,
        start: ContinuousClock.Instant, ledger: SoakLedger, latencies: SoakLatencies
    ) async {
        let spacing = options.duration / Double(max(1, options.execCount))
        for index in stride(from: lane, to: options.execCount, by: execLanes) {
            try? await Task.sleep(until: start + .seconds(spacing * Double(index)), clock: .continuous)
            let begun = ContinuousClock.now
            do {
                let result = try await turns.run { try await connection.run("echo \(index)") }
                guard result.stdoutText == "\(index)\n", result.status == .exited(0) else {
                    throw BenchFailure("echo \(index) gave \(result.stdoutText.debugDescription) \(result.status)")
                }
                ledger.execDone(milliseconds: seconds(since: begun) * 1000)
                latencies.add(.exec, at: seconds(since: start) - seconds(since: begun), milliseconds: seconds(since: begun) * 1000)
            } catch {
                ledger.fail("exec \(index): \(error)")
            }
        }
    }

    private static func readLane(
        _ connection: SSHConnection, path: String, expected: [UInt8], options: SoakOptions,
        start: ContinuousClock.Instant, ledger: SoakLedger, latencies: SoakLatencies
    ) async {
        let spacing = options.duration / Double(max(1, options.readCount))
        for index in 0..<options.readCount {
            try? await Task.sleep(until: start + .seconds(spacing * (Double(index) + 0.5)), clock: .continuous)
            do {
                let begun = ContinuousClock.now
                let entry = try await connection.stat(path)
                latencies.add(.sftpStat, at: seconds(since: start) - seconds(since: begun), milliseconds: seconds(since: begun) * 1000)
                guard entry.attributes.size == UInt64(expected.count) else { throw BenchFailure("stat gave size \(entry.attributes.size)") }
                let bytes = try await connection.readFile(path)
                guard bytes == expected else { throw BenchFailure("read \(bytes.count) bytes, not the \(expected.count) written") }
                ledger.readDone()
            } catch {
                ledger.fail("SFTP read \(index): \(error)")
            }
        }
    }

    /// Types `a` and DEL alternately, each awaited as echo, every 20 ms until the end.
    private static func shellLane(
        _ shell: InteractiveShell, start: ContinuousClock.Instant, until end: ContinuousClock.Instant,
        ledger: SoakLedger, latencies: SoakLatencies
    ) async {
        var terminal = TerminalReader(shell.output)
        do {
            try await shell.send("PS1='> '; echo RWS''READY\r")
            try await terminal.waitFor("RWSREADY")
            try await terminal.waitFor("> ")
            var typeLetter = true
            while ContinuousClock.now < end {
                let begun = ContinuousClock.now
                try await shell.send(typeLetter ? [UInt8(ascii: "a")] : [0x7F])
                try await terminal.waitFor(typeLetter ? [UInt8(ascii: "a")] : [0x08])
                ledger.keyEchoed()
                latencies.add(.shellEcho, at: seconds(since: start) - seconds(since: begun), milliseconds: seconds(since: begun) * 1000)
                typeLetter.toggle()
                try? await Task.sleep(for: .milliseconds(20))
            }
        } catch {
            ledger.fail("shell: \(error)")
        }
    }

    private static func sampler(
        options: SoakOptions, start: ContinuousClock.Instant, until end: ContinuousClock.Instant,
        ledger: SoakLedger, latencies: SoakLatencies
    ) async {
        var tick = 0.0
        var windowStart = 0.0
        while true {
            let sample = ProcessResources.sample(at: seconds(since: start))
            ledger.record(sample, isBaseline: sample.seconds >= options.warmup)
            FileHandle.standardError.write(Data("soak: \(sample.line) \(ledger.progressLine)\n".utf8))
            if sample.seconds >= windowStart + options.windowLength {
                FileHandle.standardError.write(Data((latencies.windowLine(windowStart..<sample.seconds) + "\n").utf8))
                windowStart = sample.seconds
            }
            if ContinuousClock.now >= end { return }
            tick += options.interval
            try? await Task.sleep(until: min(end, start + .seconds(tick)), clock: .continuous)
        }
    }

    private static func report(
        _ options: SoakOptions, ledger: SoakLedger, latencies: SoakLatencies, beforeConnect: ProcessResources,
        afterClose: ProcessResources, polls: PollCounters
    ) -> Bool {
        let state = ledger.snapshot()
        var problems = state.failures.prefix(10).map { "failure: \($0)" }
        if state.failures.count > 10 { problems.append("… \(state.failures.count - 10) more failures") }
        if state.execs != options.execCount { problems.append("\(state.execs) of \(options.execCount) execs succeeded") }
        if state.reads != options.readCount { problems.append("\(state.reads) of \(options.readCount) reads succeeded") }
        if let baseline = state.baseline {
            problems += options.bounds.violations(baseline: baseline, later: state.samples.filter { $0.seconds > baseline.seconds })
        } else {
            problems.append("no sample after the warm-up")
        }
        if afterClose.fds != beforeConnect.fds {
            problems.append("fds after close: \(afterClose.fds), before connecting: \(beforeConnect.fds)")
        }
        let (startVersusEnd, slower) = latencies.startVersusEnd(
            warmup: options.warmup, duration: options.duration, span: options.latencySpan, tolerance: options.latencyTolerance ?? 0.1)
        if options.latencyTolerance != nil { problems += slower }
        let summary: [String: Any] = [
            "durationSeconds": options.duration, "execs": state.execs, "reads": state.reads, "keysEchoed": state.keys,
            "followLines": state.followLines,
            "cutEverySeconds": options.cutEvery, "latencyStartVersusEnd": startVersusEnd,
            "failures": state.failures.count,
            "bounds": ["fds": options.bounds.fds, "threads": options.bounds.threads, "rssKiB": options.bounds.rssKiB],
            "beforeConnect": beforeConnect.dictionary, "baseline": state.baseline?.dictionary ?? [:],
            "peak": [
                "fds": state.samples.map(\.fds).max() ?? -1, "threads": state.samples.map(\.threads).max() ?? -1,
                "rssKiB": state.samples.map(\.rssKiB).max() ?? -1,
            ],
            "last": state.samples.last?.dictionary ?? [:], "afterClose": afterClose.dictionary,
            "execLatencyMs": state.execLatencies.summary, "loop": polls.fields, "problems": problems,
            "verdict": problems.isEmpty ? "pass" : "FAIL",
        ]
        do {
            let data = try JSONSerialization.data(withJSONObject: jsonSafe(summary), options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } catch {
            problems.append("the summary could not be written as JSON: \(error)")
        }
        for problem in problems { FileHandle.standardError.write(Data("soak: \(problem)\n".utf8)) }
        return problems.isEmpty
    }
}

/// The summary with every NaN or infinity (a percentile of no samples) as null: JSON has neither.
private func jsonSafe(_ value: Any) -> Any {
    switch value {
    case let number as Double: return number.isFinite ? number : NSNull()
    case let dictionary as [String: Any]: return dictionary.mapValues(jsonSafe)
    case let array as [Any]: return array.map(jsonSafe)
    default: return value
    }
}

extension ProcessResources {
    var dictionary: [String: Any] { ["seconds": seconds, "fds": fds, "threads": threads, "rssKiB": rssKiB] }
}

/// Counts and samples shared by the soak's lanes.
final class SoakLedger: Sendable {
    struct State {
        var execs = 0
        var reads = 0
        var keys = 0
        var followLines = 0
        var failures: [String] = []
        /// Every exec, cut or not, in constant memory.
        var execLatencies = LatencyHistogram()
        var samples: [ProcessResources] = []
        var baseline: ProcessResources?
    }

    private let state: Mutex<State>

    /// A ledger with room for `expectedSamples` resource samples, allocated before the run.
    init(expectedSamples: Int) {
        var initial = State()
        initial.samples.reserveCapacity(expectedSamples)
        state = Mutex(initial)
    }

    func execDone(milliseconds: Double) {
        state.withLock {
            $0.execs += 1
            $0.execLatencies.add(milliseconds)
        }
    }
    func readDone() { state.withLock { $0.reads += 1 } }
    func keyEchoed() { state.withLock { $0.keys += 1 } }
    func followLines(_ count: Int) { state.withLock { $0.followLines = count } }
    func fail(_ message: String) {
        FileHandle.standardError.write(Data("soak: FAILURE \(message)\n".utf8))
        state.withLock { $0.failures.append(message) }
    }

    func record(_ sample: ProcessResources, isBaseline: Bool) {
        state.withLock { state in
            state.samples.append(sample)
            if isBaseline, state.baseline == nil { state.baseline = sample }
        }
    }

    var progressLine: String {
        state.withLock { "execs=\($0.execs) reads=\($0.reads) keys=\($0.keys) failures=\($0.failures.count)" }
    }

    func snapshot() -> State { state.withLock { $0 } }
}
