/// The script that ends every process of a remote terminal session, run over a control channel.
///
/// OpenSSH makes the program on a PTY a session leader, so the PID it reports is the session id
/// of everything started from that terminal, including background jobs and programs that ignore
/// SIGHUP. Hang-up and terminate first (interactive shells ignore TERM but leave on HUP), wake
/// stopped jobs, then KILL what is left after the grace period and wait until the session is empty.
/// `pgrep -s` where it exists, else `ps -o sid` (Linux procps, BusyBox).
enum SessionKill {
    static func script(sessionID: Int, grace: Duration) -> String {
        let tenths = max(1, Int(grace.milliseconds / 100))
        return """
        s=\(sessionID)
        members() { if command -v pgrep >/dev/null 2>&1; then pgrep -s "$s"; else ps -A -o pid= -o sid= | awk -v s="$s" '$2 == s { print $1 }'; fi; }
        signal() { p=$(members); [ -z "$p" ] || kill -"$1" $p 2>/dev/null; }
        signal HUP; signal TERM; signal CONT
        i=0; while [ $i -lt \(tenths) ] && [ -n "$(members)" ]; do sleep 0.1; i=$((i+1)); done
        signal KILL
        i=0; while [ $i -lt 20 ] && [ -n "$(members)" ]; do sleep 0.05; i=$((i+1)); done
        exit 0
        """
    }
}

extension ConnectionLoop {
    /// Ends every process of the terminal session `sessionID` over a fresh control channel, then calls `done`.
    func killSession(_ sessionID: Int, done: @escaping () -> Void) {
        let script = SessionKill.script(sessionID: sessionID, grace: configuration.terminationGracePeriod)
        let killer = ExecChannel(loop: self, command: script, sink: .collect, timeout: configuration.terminationGracePeriod + .seconds(10),
                                 capturePID: false, isControl: true) { _ in done() }
        enqueue(killer)
    }
}
