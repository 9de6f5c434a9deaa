import Foundation
import RWSTestSupport
import Testing

/// A long-lived `rws` command running while a test acts on it (signals, descriptor limits, faults),
/// its output and errors collected as they come.
final class RunningRws {
    let process: Process
    let output: OutputCollector
    let errors: OutputCollector

    /// Starts `rws ARGUMENTS` with `home` as its home, reading nothing from its standard input.
    init(_ arguments: [String], home: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RWSBinary.path)
        process.arguments = arguments
        process.environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
        let output = try ChildOutputPipe(), errors = try ChildOutputPipe()
        process.standardOutput = output.forChild
        process.standardError = errors.forChild
        process.standardInput = FileHandle.nullDevice
        self.output = OutputCollector(output.reading)
        self.errors = OutputCollector(errors.reading)
        self.process = process
        try process.run()
        output.closeChildEnd()
        errors.closeChildEnd()
    }

    /// Whether rws ended within `seconds`, and its output and errors with it: a reader may not
    /// have taken the last bytes yet when the process is gone.
    func waitForExit(within seconds: Double) async -> Bool {
        let ended = try? await Eventually.holds(within: .seconds(seconds), every: .milliseconds(10)) {
            !process.isRunning && output.ended && errors.ended
        }
        if ended != true {
            let state = process.isRunning ? "still runs" : "exited with \(process.terminationStatus)"
            Issue.record("after \(seconds) s rws \(state); its output ended: \(output.ended), its errors: \(errors.ended)")
            return false
        }
        process.waitUntilExit()
        return true
    }

    func kill() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Whether rws died of libdispatch's trap, recorded as the known issue it is.
    func diedOfLibdispatchTrap() async -> Bool {
        guard !process.isRunning else { return false }
        _ = await waitForExit(within: 5)
        let said = errors.collected
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGILL,
            !said.contains("Fatal error"), !said.contains("failed:")
        else { return false }
        withKnownIssue("libdispatch trapped: its pool monitor could not open /proc/TID/stat (LibdispatchDescriptorTrapTests)") {
            Issue.record("rws died of SIGILL with no message of its own: \(said)")
        }
        return true
    }
}

/// `rws history 7777 --follow` running against the session of a ``SessionCommandsTests``.
extension RunningRws {
    /// Starts `rws history --follow` on the session, with `flags` to reach the box (by default its own).
    convenience init(_ box: TestBox, flags: [String]? = nil, extra: [String] = []) throws {
        try self.init(
            ["history"] + (flags ?? box.server.rwsFlags) + ["--claude-dir", box.claudeDirectory, "7777", "--follow"] + extra,
            home: box.localHome)
    }

    /// Runs `body` with `rws history --follow` of a fresh session box of `kind`, reached through a
    /// `FaultProxy` (keepalive 1 s × 4) and shown up to the session's last tool line; the follow,
    /// the proxy and the box are gone afterwards.
    static func throughProxy(
        _ kind: ServerKind, extra: [String] = [], _ body: (TestBox, FaultProxy, RunningRws) async throws -> Void
    ) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let run = try RunningRws(box, flags: try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4)), extra: extra)
        defer { if run.process.isRunning { run.kill() } }
        #expect(await run.output.waitFor("▸ Bash(ls) → 2 lines", seconds: 30))
        try await body(box, proxy, run)
    }

    /// The numbers of the `follow-line-N.` lines in `output`, in the order shown.
    static func numbers(in output: String) -> [Int] {
        output.components(separatedBy: "follow-line-").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    /// A watch on the polling loop of the follow, told apart from the commands that load the
    /// session (they name the file too) by its script.
    static func loopWatch(_ box: TestBox) -> RemoteProcessWatch {
        RemoteProcessWatch(markers: SessionCommandsTests.file(in: box), "while :; do")
    }
}
