import Foundation
import Platform

/// How ``TestSSHServer`` runs dropbear without touching the real `~/.ssh`.
///
/// Dropbear takes `HOME` and `~/.ssh/authorized_keys` from the passwd entry, with no option to
/// change either. So it runs in a private mount namespace (`unshare -m`, propagation private)
/// where a copy of `/etc/passwd`, whose entry for the test user has the sandbox home, is
/// bind-mounted over the real one; the sandbox home holds `.ssh/authorized_keys`. That needs
/// root, as the namespace does.
///
/// Debian's dropbear runs `/usr/lib/sftp-server` (compiled in) for the sftp subsystem, which
/// openssh-sftp-server provides as a link to `/usr/lib/openssh/sftp-server`. Without SFTP, an
/// empty non-executable file is bind-mounted over it, as on a box without that package: dropbear
/// still accepts the subsystem request (sshd refuses it), and the channel then closes.
///
/// A watchdog started with the server kills it once the test process is gone (within ~5 s: a
/// look every second started ~1,400 `sleep`s a run), so a killed test run does not leave it
/// listening.
enum DropbearServer {
    /// Checks the programs, writes the host key (`host_ed25519`, `.pub` in OpenSSH format), the
    /// passwd copy and the sandbox home's `.ssh`.
    static func prepare(_ options: TestSSHServer.Options, directory: String, home: String, user: String) throws {
        try Prerequisites.require("/usr/sbin/dropbear", package: "dropbear-bin")
        try Prerequisites.require("/usr/bin/dropbearkey", package: "dropbear-bin")
        try Prerequisites.require("/usr/bin/unshare", package: "util-linux")
        guard SystemCall.isRoot else {
            throw TestServerError.startFailed(
                "the dropbear test server needs root (a private mount namespace keeps it away from the real ~/.ssh)")
        }
        guard options.extraConfig.isEmpty else {
            throw TestServerError.startFailed("extraConfig holds sshd_config lines, which dropbear does not read: \(options.extraConfig)")
        }
        guard options.maxSessions == nil else {
            throw TestServerError.startFailed("dropbear's channel limit is fixed when it is built: maxSessions cannot be set")
        }
        if options.sftp { try Prerequisites.require("/usr/lib/sftp-server", package: "openssh-sftp-server") }
        try Shell.run("/usr/bin/dropbearkey", ["-t", "ed25519", "-f", directory + "/host_ed25519"])
        let printed = try Shell.run("/usr/bin/dropbearkey", ["-y", "-f", directory + "/host_ed25519"])
        guard let publicKey = printed.split(separator: "\n").first(where: { $0.hasPrefix("ssh-ed25519 ") }) else {
            throw TestServerError.startFailed("dropbearkey -y printed no ssh-ed25519 line: \(printed)")
        }
        try (publicKey + "\n").write(toFile: directory + "/host_ed25519.pub", atomically: true, encoding: .utf8)
        try passwd(user: user, home: home).write(toFile: directory + "/passwd", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: home + "/.ssh", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try "".write(toFile: directory + "/no-sftp-server", atomically: true, encoding: .utf8)
    }

    /// Starts dropbear in the foreground on `port`, logging to `logPath`.
    static func start(_ options: TestSSHServer.Options, port: Int, directory: String, logPath: String) throws -> SpawnedProcess {
        // $$ is dropbear itself after the exec; the watchdog is its child, so signalAll reaches it.
        let script = """
            mount --bind "$1" /etc/passwd || exit 1
            if [ -n "$2" ] && [ -e /usr/lib/sftp-server ]; then mount --bind "$2" /usr/lib/sftp-server || exit 1; fi
            (while kill -0 "$7" 2>/dev/null; do sleep 5; done; kill -KILL $$) </dev/null >/dev/null 2>&1 &
            if [ -n "$8" ]; then set -- "$@" -c "$8"; fi
            if [ -z "$9" ]; then set -- "$@" -s; fi
            a=$3 k=$4 f=$5 l=$6; shift 9
            exec /usr/sbin/dropbear -F -E -p "127.0.0.1:$a" -r "$k" -P "$f" "$@" 2>>"$l"
            """
        return try SpawnedProcess(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "/bin/sh", "-c", script, "dropbear-test",
                directory + "/passwd", options.sftp ? "" : directory + "/no-sftp-server", String(port),
                directory + "/host_ed25519", directory + "/dropbear.pid", logPath, String(SystemCall.processID), options.forceCommand ?? "",
                options.passwordAuthentication ? "password" : "",
            ])
    }

    /// The system's passwd with the home of `user` replaced by the sandbox home.
    private static func passwd(user: String, home: String) throws -> String {
        let system = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        var found = false
        let lines = system.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, fields[0] == user else { return String(line) }
            found = true
            fields[5] = home
            return fields.joined(separator: ":")
        }
        guard found else { throw TestServerError.startFailed("user \(user) is not in /etc/passwd") }
        return lines.joined(separator: "\n")
    }
}
