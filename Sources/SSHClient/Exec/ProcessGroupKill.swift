/// The shell script that stops a remote command's process group: SIGTERM, a grace period for it
/// to exit, then SIGKILL, and a short wait until the group is gone so callers see it gone.
///
/// "Gone" ignores zombies: in containers whose PID 1 does not reap, a killed child stays a zombie
/// in the group forever, and `kill -0` would keep answering yes.
enum ProcessGroupKill {
    static func script(pid: Int, grace: Duration) -> String {
        let tenths = max(1, Int(grace.milliseconds / 100))
        return """
        alive() {
          if out=$(ps -eo pgid=,stat= 2>/dev/null); then
            printf '%s\\n' "$out" | awk -v g=\(pid) '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
          else
            kill -0 -- -\(pid) 2>/dev/null
          fi
        }
        kill -TERM -- -\(pid) 2>/dev/null || exit 0
        i=0; while [ $i -lt \(tenths) ] && alive; do sleep 0.1; i=$((i+1)); done
        kill -KILL -- -\(pid) 2>/dev/null
        i=0; while [ $i -lt 20 ] && alive; do sleep 0.05; i=$((i+1)); done
        exit 0
        """
    }
}
