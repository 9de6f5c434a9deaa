import Foundation

/// The one script that stops a command's or a terminal's processes, run over a control channel,
/// and what it reports.
///
/// The processes are found from the PID that ``StoppableCommand`` reported: every process in its
/// session (it leads one on OpenSSH, and on dropbear after `setsid`), and every descendant of a
/// process found, looked up again on each pass and remembered, so children that were adopted by
/// PID 1 once their parent died, or that moved to a session of their own, are still included.
/// Escapes: a process whose parent left before the first look and that left the session
/// (a daemon's double fork with `setsid`).
///
/// Hang up, terminate and continue (interactive shells ignore TERM but leave on HUP; stopped
/// jobs need CONT to act on TERM), wait up to the grace period (by the clock too: up to its whole seconds
/// rounded up, plus one and one look at the table, however long a look takes), then freeze and kill what is left
/// in rounds (SIGSTOP until a look finds no new process, so a loop that forks faster than it is
/// killed cannot outrun it, then SIGKILL), until the table shows none, for at most 40 rounds and
/// about 10 seconds (the clock bounds hold where the box has `date`; the counts hold everywhere),
/// and what is left once more for about 2 seconds (a busy box runs a killed
/// process's exit later than the next look); print `rws-stop-cmd:` with each survivor's command
/// line and `rws-stop:` with the PIDs still running. Zombies do not count: they are
/// dead and only unreaped (in containers whose PID 1 does not reap, they stay forever).
/// The process table comes from `ps -A -o pid=,ppid=,sid=,stat=` (procps, BusyBox), else from
/// `/proc/*/stat`; without either the script says `rws-stop:unverified`, and when its shell cannot open a file
/// (the box out of descriptors) it kills the process group and says `rws-stop:no-descriptors`.
enum ProcessKill {
    /// What the kill script found at its end.
    enum Outcome: Equatable {
        /// Nothing of the command is left.
        case stopped
        /// These PIDs still ran after SIGKILL and the wait; what each runs, where the box said.
        case survivors([Int], commandLines: [Int: String])
        /// The script could not read the process table, or did not report: why.
        case unverified(String)
        /// The script did not run to its end: its channel or the connection failed, with this error.
        case notRun(SSHError)
        /// The box did not finish the script within its time (a box too busy to run it soon):
        /// what it did is not known.
        case tooSlow(Duration)
    }

    /// The kill script: `$1` the PID, `$2` the grace period in tenths of a second, `$3` the same in seconds.
    static let script = RemoteScript(
        step: "stopping a remote command", checksDescriptors: false,
        body: #"""
            # shellcheck disable=SC2086 # PID lists are split into words
            p=$1 me=$$ known=$1 tenths=$2 pause=$3
            table() {
              ps -A -o pid= -o ppid= -o sid= -o stat= 2>/dev/null && return
              for d in /proc/[0-9]*; do
                l=; read -r l 2>/dev/null <"$d/stat" || continue
                r=${l##*') '}; set -- $r
                echo "${l%% *} $2 $4 $1"
              done
            }
            members() {
              t=$(table)
              [ -n "$t" ] || { known=; return 1; }
              # The known PIDs go first on stdin: as an argument, 16,000 of them (a fork loop's
              # seconds) are more than one argument may hold, and awk would not start.
              known=$({ echo "$known"; printf '%s\n' "$t"; } | awk -v p="$p" -v me="$me" '
                NR == 1 { n = split($0, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1; next }
                { pid[NR] = $1; ppid[NR] = $2; sid[NR] = $3; stat[NR] = $4 }
                END {
                  do {
                    changed = 0
                    for (i = 2; i <= NR; i++)
                      if (!(pid[i] in want) && (sid[i] == p || ppid[i] in want)) { want[pid[i]] = 1; changed = 1 }
                  } while (changed)
                  for (i = 2; i <= NR; i++) if ((pid[i] in want) && stat[i] !~ /^Z/ && pid[i] != me) printf "%s ", pid[i]
                }')
            }
            # No redirection: a shell out of descriptors fails it, and the kill with it (the stderr is not read).
            signal() { [ -z "$known" ] || kill -"$1" $known; }
            # Seconds by the clock; a box without `date` reads 0, and the waits keep their counts.
            now() { date +%s 2>/dev/null || echo 0; }
            # Stopped processes cannot fork: STOP until a look finds nobody new, then KILL them all.
            freeze_and_kill() {
              j=0
              while [ $j -lt 20 ]; do
                signal STOP; before=$known
                look
                [ "$known" = "$before" ] && break
                j=$((j+1))
              done
              signal KILL
            }
            # No redirections here: a shell out of descriptors fails them, and the kill with them.
            if ! members; then
              kill -HUP -- -$p; kill -TERM -- -$p; sleep "$pause"
              kill -KILL -- -$p
              if true 2>/dev/null; then echo rws-stop:unverified; else echo rws-stop:no-descriptors; fi
              exit 0
            fi
            # After the first look, a table that cannot be read is reported as such.
            look() { members || { echo rws-stop:unverified; exit 0; }; }
            signal HUP; signal TERM; signal CONT
            # Each look is a scan of the whole process table (tens of milliseconds on a busy box),
            # so none is repeated: every loop below starts from the last look and ends on a fresh
            # one, and a look that finds nothing left ends the script.
            # The grace period by the clock too (whole seconds, rounded up, and one for the second
            # already begun): a look at a table of thousands takes most of a second, and twenty
            # looks would stretch two seconds of grace to twenty.
            i=0 end=$(($(now) + (tenths + 9) / 10 + 1))
            while look && [ -n "$known" ] && [ $i -lt "$tenths" ] && [ "$(now)" -lt $end ]; do sleep 0.1; i=$((i+1)); done
            # Bounded: at most 40 rounds and about 10 seconds; a round that changed nothing ends it.
            r=0 last='' end=$(($(now) + 10))
            while [ -n "$known" ] && [ "$known" != "$last" ] && [ $r -lt 40 ] && [ "$(now)" -le $end ]; do
              last=$known
              freeze_and_kill
              sleep 0.05; r=$((r+1))
              look
            done
            # A SIGKILL takes effect when the process next runs, which on a busy box can be after
            # the look above: what is left gets about two seconds more, killed again on each look.
            w=0 end=$(($(now) + 2))
            while [ -n "$known" ] && [ $w -lt 20 ] && [ "$(now)" -le $end ]; do
              signal KILL; sleep 0.1; w=$((w+1))
              look
            done
            for q in $known; do
              a=$(ps -o args= -p "$q" 2>/dev/null) || a=$(tr '\0' ' ' <"/proc/$q/cmdline" 2>/dev/null)
              printf 'rws-stop-cmd:%s %s\n' "$q" "$a"
            done
            echo "rws-stop:$known"
            """#)

    /// The kill script's command line for `pid`.
    static func commandLine(pid: Int, grace: Duration) -> String {
        let tenths = max(1, Int(grace.milliseconds / 100))
        // Digits only: nothing to refuse.
        return (try? script.commandLine(String(pid), String(tenths), String(Double(tenths) / 10))) ?? ""
    }

    /// Reads the script's report from its result.
    static func outcome(of result: Result<CommandResult, SSHError>) -> Outcome {
        let output: CommandResult
        switch result {
        case .success(let result): output = result
        case .failure(.timedOut(_, let after)): return .tooSlow(after)
        case .failure(let error): return .notRun(error)
        }
        guard let line = output.stdoutText.split(separator: "\n").last(where: { $0.hasPrefix("rws-stop:") }) else {
            return .unverified("the stop script did not report")
        }
        let rest = line.dropFirst("rws-stop:".count)
        if rest == "unverified" { return .unverified("the remote process table could not be read: neither ps nor /proc") }
        if rest == "no-descriptors" {
            return .unverified(
                "the box's shell could not open its process table: the box is out of file descriptors; its process group was killed")
        }
        let pids = rest.split(separator: " ").compactMap { Int($0) }
        return pids.isEmpty ? .stopped : .survivors(pids, commandLines: commandLines(in: output.stdoutText))
    }

    /// The `rws-stop-cmd:PID command line` lines of the script's report.
    private static func commandLines(in report: String) -> [Int: String] {
        var lines: [Int: String] = [:]
        for line in report.split(separator: "\n") where line.hasPrefix("rws-stop-cmd:") {
            let fields = line.dropFirst("rws-stop-cmd:".count).split(separator: " ", maxSplits: 1)
            guard let pid = fields.first.flatMap({ Int($0) }) else { continue }
            let words = fields.count > 1 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
            if !words.isEmpty { lines[pid] = words }
        }
        return lines
    }

    /// The error a stop ends with: `reason` when everything stopped, else ``SSHError/stopFailed(command:survivors:commandLines:)`` (or
    /// ``SSHError/stopUnverified(command:reason:)``).
    static func error(_ outcome: Outcome, reason: SSHError, command: String, pid: Int) -> SSHError {
        switch outcome {
        case .stopped: return reason
        case .survivors(let pids, let commandLines): return .stopFailed(command: command, survivors: pids, commandLines: commandLines)
        case .unverified(let why): return .stopUnverified(command: command, reason: why)
        case .notRun(let error): return .stopUnverified(command: command, reason: "the stop could not run: \(error)")
        case .tooSlow(let after):
            return .stopUnverified(
                command: command,
                reason: "the box did not finish the stop within \(after.shortDescription), as a box too busy to run it does not; "
                    + "kill -- -\(pid) there ends it")
        }
    }
}

extension LoopContext {
    /// Stops every process of the command or terminal that reported `pid` (see ``ProcessKill``)
    /// over a fresh control channel, then calls `done` with what is left.
    ///
    /// Until `done`, the stop counts as running: a close that gives up waiting for it reports it
    /// (``UnfinishedStop``), with `command` when given.
    func stopProcesses(of pid: Int, command: String? = nil, done: @escaping (ProcessKill.Outcome) -> Void) {
        configuration.logger.info("stopping a remote command", metadata: ["pid": "\(pid)"])
        let grace = configuration.terminationGracePeriod
        let token = stopsRunning.begin(pid: pid, command: command)
        let killer = ExecChannel(
            loop: self, command: ProcessKill.commandLine(pid: pid, grace: grace), sink: .collect,
            timeout: grace + .seconds(30), capturePID: false, isControl: true
        ) { [weak self] result in
            self?.stopsRunning.end(token)
            done(ProcessKill.outcome(of: result))
        }
        enqueue(killer)
    }
}
