import Foundation
import Platform
import RWSTestSupport

/// The fault soak's watch: rws's hooks installed in a Claude data folder on the box, one
/// `rws watch --json` for the whole run, and Claude Code's side — the hook, run on the box as
/// Claude Code runs it — reporting a finished session every two seconds, each its own session.
/// Every report must be shown once and in order (the box's spool keeps what a dropped link
/// missed), and Ctrl+C must exit 130.
enum FaultSoakWatch {
    static func run(_ context: FaultSoak.Context, ledger: FaultSoakLedger) async {
        do {
            let claude = context.server.remoteHome + "/\(context.marker)-watch-claude"
            try FileManager.default.createDirectory(atPath: claude, withIntermediateDirectories: true)
            let flags = context.flags + ["--claude-dir", claude]
            let install = try RWSProcess(context.rws, ["hooks", "install"] + flags, home: context.home)
            guard let installed = await install.wait(within: .seconds(60)), installed.status == 0 else {
                return ledger.fail("watch: rws hooks install failed")
            }
            let watch = try RWSProcess(context.rws, ["watch", "--json"] + flags, home: context.home)
            guard try await Eventually.holds(within: .seconds(30), { FileManager.default.fileExists(atPath: claude + "/rws/lease") }) else {
                _ = await watch.wait(within: .seconds(1))
                return ledger.fail("watch: it never took the lease")
            }
            var reported = 0
            var nextSample = 0.0
            while ContinuousClock.now < context.end - .seconds(5) {
                reported += 1
                let reportedAt = ContinuousClock.now
                try report(reported, claude: claude)
                // Sampled only the moment this report shows, as the other lanes sample: a report
                // shown seconds ago says nothing of a link reset since, and a process waiting to
                // reconnect holds fewer descriptors than a connected one.
                if seconds(since: context.start) >= nextSample,
                    try await Eventually.holds(
                        within: .milliseconds(1500), every: .milliseconds(10), { numbers(in: watch.stdoutSoFar).last == reported })
                {
                    let sample = ProcessResources.sample(at: seconds(since: context.start), process: "\(watch.pid)")
                    ledger.update { $0.watchResources.append(sample) }
                    nextSample = seconds(since: context.start) + context.options.sampleEvery
                }
                try? await Task.sleep(until: reportedAt + .seconds(2))
            }
            _ = try await Eventually.holds(within: .seconds(60)) { numbers(in: watch.stdoutSoFar).last == reported }
            let shown = numbers(in: watch.stdoutSoFar)
            try SystemCall.kill(watch.pid, SIGINT)
            let outcome = await watch.wait(within: .seconds(30))
            ledger.update { $0.watch = (reported, shown.count) }
            ledger.check("watch", shown: shown, of: reported, outcome: outcome)
        } catch {
            ledger.fail("watch: \(error)")
        }
    }

    /// Claude Code's Stop hook for session `s-NUMBER`, whose last answer is `Done NUMBER.`.
    private static func report(_ number: Int, claude: String) throws {
        let payload =
            #"{"session_id":"s-\#(number)","cwd":"/home/dev/app","hook_event_name":"Stop","#
            + #""last_assistant_message":"Done \#(number)."}"#
        let run = try ScriptShells.execute(
            "/bin/sh", [claude + "/rws/hook.sh", claude + "/rws"], input: Array(payload.utf8), directory: claude)
        guard run.status == 0 else { throw BenchFailure("the hook failed: \(run.stderr)") }
    }

    private static func numbers(in output: String) -> [Int] {
        output.components(separatedBy: "finished: Done ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }
}
