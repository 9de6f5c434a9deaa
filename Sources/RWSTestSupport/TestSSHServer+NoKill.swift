import Foundation

extension TestSSHServer {
    /// A server of `kind` whose sessions run as root without CAP_KILL (a forced command drops it
    /// with util-linux `setpriv`), so nothing run there can signal another user's process: the
    /// situation of a command that started something with `sudo -u`.
    public static func withoutKillCapability(_ kind: ServerKind) throws -> TestSSHServer {
        try Prerequisites.require("/usr/bin/setpriv", package: "util-linux")
        return try forcing(kind, script: #"exec setpriv --inh-caps=-kill --bounding-set=-kill -- /bin/sh -c "$SSH_ORIGINAL_COMMAND""#)
    }

    /// A command line that starts `sleep seconds` as user nobody in the background, immune to
    /// the hang-up a terminal's end sends (`nohup`), and waits: on a ``withoutKillCapability(_:)``
    /// server, no stop can end that sleep.
    public static func commandLeavingAnUnkillableChild(_ seconds: Int) -> String {
        "setpriv --reuid=65534 --regid=65534 --clear-groups nohup sleep \(seconds) >/dev/null 2>&1 & wait"
    }
}

extension TestSSHServer {
    /// A server of `kind` that starts rws's kill scripts `delay` late and every other command at
    /// once: a box too busy to run a stop in time.
    public static func withSlowStops(_ kind: ServerKind, delay: Duration) throws -> TestSSHServer {
        try forcing(
            kind,
            script: "case \"$SSH_ORIGINAL_COMMAND\" in *rws-stop*) sleep \(delay.components.seconds) ;; esac\n"
                + "exec /bin/sh -c \"$SSH_ORIGINAL_COMMAND\"")
    }
}
