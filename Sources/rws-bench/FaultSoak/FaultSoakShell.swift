import Foundation
import RWSTestSupport
import SSHClient

/// The fault soak's persistent shell: `rws shell --persist` in a terminal (a private tmux),
/// typed into every 2 s. Through every fault rws reattaches by itself; at the end the shell
/// must still be the one started (a variable set at the start is still set), and answer.
enum FaultSoakShell {
    static func run(_ context: FaultSoak.Context, ledger: FaultSoakLedger) async {
        let name = "fsoak\(ProcessInfo.processInfo.processIdentifier)"
        let tmux: Tmux
        do {
            tmux = try Tmux.start(home: context.home)
        } catch {
            return ledger.fail("shell: no terminal: \(error)")
        }
        defer { tmux.stop() }
        do {
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type(try ShellQuoting.commandLine([context.rws, "shell"] + context.flags + ["--persist", name]))
            try tmux.type("SOAK=persisted-$((6*7)); echo ready-$((6*7))")
            try await tmux.wait(for: "ready-42", within: .seconds(30))
            let pid = try rwsPID(name)
            var (typed, answered) = try await typeAndSample(context, tmux: tmux, pid: pid, ledger: ledger)
            // After the quiet time the same shell answers: the variable set at the start is there.
            try tmux.type("echo still-$SOAK")
            try await tmux.wait(for: "still-persisted-42", within: .seconds(60))
            answered.formUnion(answers(in: try tmux.screen()))
            ledger.update {
                $0.shellTyped = typed
                $0.shellAnswered = answered.count
                $0.shellPersisted = true
            }
        } catch {
            ledger.fail("shell: \(error)")
        }
        // Closing the terminal leaves the shell running on the box; ending it is explicit, over a
        // direct link, and checked on the box.
        tmux.stop()
        do {
            let process = try RWSProcess(
                context.rws, ["shell"] + context.server.rwsFlags + ["--kill-persistent", name], home: context.home)
            let outcome = await process.wait(within: .seconds(30))
            if outcome?.status != 0 {
                ledger.fail("shell: --kill-persistent \(name): \(outcome.map { "\($0.status) \($0.stderr)" } ?? "hung")")
            }
            let left = await FaultSoak.leftovers(name, except: { isTmuxServerOfOthers($0, name: name) })
            if !left.isEmpty { ledger.fail("shell: the persistent shell is still on the box: \(left)") }
        } catch {
            ledger.fail("shell: ending it: \(error)")
        }
    }

    /// Types a numbered `echo` every 2 s until 10 s before the end; returns how many were typed
    /// and which were answered. The rws process is sampled only while its link works: as soon as
    /// the line just typed is answered, as the follow is.
    private static func typeAndSample(
        _ context: FaultSoak.Context, tmux: Tmux, pid: Int32, ledger: FaultSoakLedger
    ) async throws -> (typed: Int, answered: Set<Int>) {
        var typed = 0
        var answered = Set<Int>()
        var nextSample = 0.0
        while ContinuousClock.now < context.end - .seconds(10) {
            typed += 1
            try tmux.type("echo typed-$((\(typed)+0))-ok")
            let next = ContinuousClock.now + .seconds(2)
            var due = seconds(since: context.start) >= nextSample
            while ContinuousClock.now < next {
                // The screen is read once a turn, and every 200 ms only while a sample waits for the answer.
                try? await Task.sleep(until: due ? min(next, .now + .milliseconds(200)) : next, clock: .continuous)
                answered.formUnion(answers(in: try tmux.screen()))
                if due, answered.contains(typed) {
                    let sample = ProcessResources.sample(at: seconds(since: context.start), process: "\(pid)")
                    ledger.update { $0.shellResources.append(sample) }
                    nextSample = seconds(since: context.start) + context.options.sampleEvery
                    due = false
                }
            }
        }
        return (typed, answered)
    }

    /// Whether a `ps` row is the box's tmux server serving sessions other than `name`: one server
    /// per user holds every persistent shell, and it keeps the command line of the client that
    /// started it — the soak's, when the soak's shell came first and a test beside it still has one.
    private static func isTmuxServerOfOthers(_ row: Substring, name: String) -> Bool {
        guard let sessions = try? Shell.run("/usr/bin/tmux", ["list-sessions", "-F", "#{pid} #{session_name}"]) else { return false }
        let rows = sessions.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        guard !rows.contains(where: { $0.count == 2 && $0[1] == name }) else { return false }
        let pid = row.split(separator: " ").first.map(String.init)
        return rows.contains { $0.first.map(String.init) == pid }
    }

    /// The local `rws shell --persist NAME` process.
    private static func rwsPID(_ name: String) throws -> Int32 {
        let rows = try Shell.run("/bin/ps", ["-eo", "pid=,args="]).split(separator: "\n")
            .filter { $0.contains(" shell ") && $0.contains("--persist \(name)") }
        guard rows.count == 1, let pid = Int32(rows[0].trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) else {
            throw BenchFailure("shell: \(rows.count) rws shell --persist \(name) processes")
        }
        return pid
    }

    /// The numbers the shell answered (`typed-N-ok` as output, not as the typed `$((N+0))`).
    private static func answers(in screen: String) -> Set<Int> {
        Set(
            screen.components(separatedBy: "typed-").dropFirst().compactMap { part -> Int? in
                let digits = part.prefix { $0.isNumber }
                return part.dropFirst(digits.count).hasPrefix("-ok") ? Int(digits) : nil
            })
    }
}
