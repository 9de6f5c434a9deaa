/// The shell script that stops a remote command's process group: SIGTERM, a grace period for it
/// to exit, then SIGKILL, and a short wait until the group is gone so callers see it gone.
enum ProcessGroupKill {
    static func script(pid: Int, grace: Duration) -> String {
        let tenths = max(1, Int(grace.milliseconds / 100))
        return """
        kill -TERM -- -\(pid) 2>/dev/null || exit 0
        i=0; while [ $i -lt \(tenths) ] && kill -0 -- -\(pid) 2>/dev/null; do sleep 0.1; i=$((i+1)); done
        kill -KILL -- -\(pid) 2>/dev/null
        i=0; while [ $i -lt 20 ] && kill -0 -- -\(pid) 2>/dev/null; do sleep 0.05; i=$((i+1)); done
        exit 0
        """
    }
}
