import Foundation
import Platform

/// How ``TestSSHServer`` runs OpenSSH: `sshd -D` with its own config, keys and authorized_keys
/// in the server's directory.
enum OpenSSHServer {
    /// Checks the programs and writes the host key (`host_ed25519`, `.pub`).
    static func prepare(directory: String) throws {
        try Prerequisites.require("/usr/sbin/sshd", package: "openssh-server")
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory + "/host_ed25519"])
        if SystemCall.isRoot, !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(
                atPath: "/run/sshd", withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755])
        }
    }

    /// Writes the config for `port` and starts sshd in the foreground.
    static func start(
        _ options: TestSSHServer.Options, port: Int, directory: String, home: String, logPath: String
    ) throws -> SpawnedProcess {
        let configPath = directory + "/sshd_config"
        try config(options, port: port, directory: directory, home: home).write(toFile: configPath, atomically: true, encoding: .utf8)
        return try SpawnedProcess("/usr/sbin/sshd", ["-D", "-f", configPath, "-E", logPath])
    }

    private static func config(_ options: TestSSHServer.Options, port: Int, directory: String, home: String) -> String {
        // sshd keeps the first value of a keyword: the test's own lines go first to win.
        var lines =
            options.extraConfig + [
                "ListenAddress 127.0.0.1:\(port)",
                "HostKey \(directory)/host_ed25519",
                "PidFile \(directory)/sshd.pid",
                "AuthorizedKeysFile \(directory)/authorized_keys",
                "PubkeyAuthentication yes",
                "PasswordAuthentication \(options.passwordAuthentication ? "yes" : "no")",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "StrictModes no",
                "PermitRootLogin yes",
                "Compression no",
                "LogLevel VERBOSE",
                // Tests connect in bursts; the default (10:30:100) drops some handshakes ("Failed getting banner").
                "MaxStartups 200:30:400",
                // Debian's bash sources ~/.bashrc for sshd commands when SHLVL < 2; a sandbox HOME keeps it out.
                "SetEnv HOME=\(home) SHLVL=1",
            ]
        if let maxSessions = options.maxSessions { lines.append("MaxSessions \(maxSessions)") }
        if options.sftp { lines.append("Subsystem sftp internal-sftp") }
        if let forced = options.forceCommand { lines.append("ForceCommand \(forced)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
