// rws-sandbox: the throwaway OpenSSH sshd on 127.0.0.1 of the demo and the benchmarks, the same
// server the tests start (RWSTestSupport's TestSSHServer), started from a script:
//
//     eval "$(rws-sandbox start DIR [--max-sessions N])"   # sets the SANDBOX_* variables below
//     eval "$(rws-sandbox start DIR --real-home)"          # also a client home like a long-used one
//     rws-sandbox stop DIR
//
// Keys, config, logs and the sessions' HOME (DIR/home, never the real home) live in DIR. The
// server outlives `start`; `stop` ends it and every session under it.
import Foundation
import Platform
import RWSTestSupport
import SSHClient

let usage = "usage: rws-sandbox start DIR [--max-sessions N | --real-home] | rws-sandbox stop DIR"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rws-sandbox: \(message)\n".utf8))
    exit(message == usage ? 64 : 1)
}

/// `NAME='value'` lines for the caller to `eval`.
func shellAssignments(_ values: KeyValuePairs<String, String>) throws -> String {
    try values.map { "\($0.key)=\(try ShellQuoting.quote($0.value))" }.joined(separator: "\n")
}

func start(_ directory: URL, maxSessions: Int, realHome: Bool) throws {
    // The sshd default log level: VERBOSE (the tests') would log every command the benchmarks run.
    let options = TestSSHServer.Options(maxSessions: maxSessions, extraConfig: ["LogLevel INFO"])
    let server = try TestSSHServer(.openssh, options, directory: directory)
    server.detach()
    let sshConfig = directory.path + "/ssh_config"
    try """
    Host sandbox
      HostName 127.0.0.1
      Port \(server.port)
      User \(server.user)
      IdentityFile \(server.clientKeyPath)
      IdentitiesOnly yes
      UserKnownHostsFile \(server.knownHostsPath)

    """.write(toFile: sshConfig, atomically: true, encoding: .utf8)
    if realHome {
        // The client side as a person has it (RealHome): `Host box` in its ~/.ssh/config, not yet in its known_hosts.
        let home = try RealHome(for: server, at: directory.path + "/client-home")
        try home.detach()
        print(try shellAssignments(["SANDBOX_CLIENT_HOME": home.home, "SANDBOX_AUTH_SOCK": home.agentSocket]))
    }
    print(
        try shellAssignments([
            "SANDBOX_PORT": String(server.port), "SANDBOX_USER": server.user, "SANDBOX_HOME": server.remoteHome,
            "SANDBOX_KEY": server.clientKeyPath, "SANDBOX_KNOWN_HOSTS": server.knownHostsPath, "SANDBOX_SSH_CONFIG": sshConfig,
        ]))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, ["start", "stop"].contains(arguments[0]) else { fail(usage) }
let directory = URL(fileURLWithPath: arguments[1]).standardizedFileURL
do {
    if arguments[0] == "stop" {
        guard arguments.count == 2 else { fail(usage) }
        RealHome.stopDetached(home: directory.path + "/client-home")
        try TestSSHServer.stopDetached(directory: directory)
    } else {
        var maxSessions = 100
        var realHome = false
        switch arguments.dropFirst(2).count {
        case 0: break
        case 1 where arguments[2] == "--real-home": realHome = true
        case 2 where arguments[2] == "--max-sessions": maxSessions = Int(arguments[3]) ?? { fail(usage) }()
        default: fail(usage)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start(directory, maxSessions: maxSessions, realHome: realHome)
    }
} catch {
    fail("\(error)")
}
