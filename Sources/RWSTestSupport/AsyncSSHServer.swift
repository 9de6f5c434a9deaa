import Foundation
import Platform

/// How ``TestSSHServer`` runs the asyncssh server (`scripts/lib/asyncssh_server.py`): an SSH
/// server nobody on the project wrote, on a third implementation (Python's asyncssh, Debian's
/// `python3-asyncssh`), so that what the tests prove against it is rws's behaviour and not the
/// habits of OpenSSH or dropbear.
///
/// It runs with Debian's `/usr/bin/python3` (the package installs the module for that one, not
/// for a Python earlier on `PATH`), reads the host key and `authorized_keys` from the server's
/// directory (the keys again at every connection), and gives sessions `HOME` = the sandbox home.
/// It watches the test process and exits within a second of its end, so a killed test run does
/// not leave it listening.
enum AsyncSSHServer {
    /// The interpreter that has the asyncssh module.
    static let python = "/usr/bin/python3"

    /// The password that password and keyboard-interactive logins accept when
    /// ``TestSSHServer/Options/passwordAuthentication`` is on.
    static let password = "rws-test-password"

    /// The server program in the repository.
    static var programPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/asyncssh_server.py").path
    }

    /// Checks Python and its asyncssh module, refuses what the server cannot do, and writes the
    /// host key (`host_ed25519`, `.pub`).
    static func prepare(_ options: TestSSHServer.Options, directory: String) throws {
        try Prerequisites.require(python, package: "python3")
        try Prerequisites.requirePythonModule("asyncssh", python: python, package: "python3-asyncssh")
        guard options.extraConfig.isEmpty else {
            throw TestServerError.startFailed(
                "extraConfig holds sshd_config lines, which the asyncssh server does not read: \(options.extraConfig)")
        }
        guard options.maxSessions == nil else {
            throw TestServerError.startFailed("the asyncssh server has no session limit: maxSessions cannot be set")
        }
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory + "/host_ed25519"])
    }

    /// Starts the server on `port`, logging to `logPath`.
    static func start(
        _ options: TestSSHServer.Options, port: Int, directory: String, home: String, logPath: String
    ) throws -> SpawnedProcess {
        var arguments = [
            programPath, "--port", String(port), "--directory", directory, "--home", home, "--log", logPath,
            "--pid-file", directory + "/asyncssh.pid", "--parent-pid", String(SystemCall.processID),
        ]
        if options.passwordAuthentication { arguments += ["--password", password] }
        if !options.sftp { arguments.append("--no-sftp") }
        if let forced = options.forceCommand { arguments += ["--force-command", forced] }
        return try SpawnedProcess(python, arguments)
    }
}
