import Foundation
import SSHClient

/// Runs the scripts rws sends to the box on this machine, under each POSIX shell a box may have
/// as `/bin/sh` (dash, bash, BusyBox sh), and checks them with shellcheck.
package enum ScriptShells {
    /// A shell to run scripts with.
    package struct Shell: Sendable, CustomStringConvertible {
        /// Its name in messages.
        package var name: String
        /// The program, called with `-c BODY rws ARGS...`.
        package var path: String
        package var description: String { name }
    }

    /// What one run of a script did.
    package struct Run: Equatable, Sendable, CustomStringConvertible {
        /// The exit status, or 128 + the signal number.
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: String
        /// The output as text, for messages and checks.
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        package var description: String { "status \(status), stdout \(stdoutText.debugDescription), stderr \(stderr.debugDescription)" }
    }

    /// dash, bash and BusyBox sh (through a link named `sh`, so that BusyBox runs its shell);
    /// fails with the install command when one is missing.
    package static func all(linksIn folder: String) throws -> [Shell] {
        try Prerequisites.require("/usr/bin/dash", package: "dash")
        try Prerequisites.require("/bin/bash", package: "bash")
        try Prerequisites.require("/usr/bin/busybox", package: "busybox")
        let busybox = folder + "/sh"
        if !FileManager.default.fileExists(atPath: busybox) {
            try FileManager.default.createSymbolicLink(atPath: busybox, withDestinationPath: "/usr/bin/busybox")
        }
        return [
            Shell(name: "dash", path: "/usr/bin/dash"), Shell(name: "bash", path: "/bin/bash"), Shell(name: "busybox sh", path: busybox),
        ]
    }

    /// dash alone, the `/bin/sh` of Debian boxes: for tests that run a script for its output
    /// rather than to compare shells.
    package static func dash() throws -> Shell {
        try Prerequisites.require("/usr/bin/dash", package: "dash")
        return Shell(name: "dash", path: "/usr/bin/dash")
    }

    /// shellcheck's findings for `script` as a POSIX sh script; empty when there are none.
    package static func shellcheck(_ script: RemoteScript) throws -> String {
        try Prerequisites.require("/usr/bin/shellcheck", package: "shellcheck")
        let run = try execute(
            "/usr/bin/shellcheck", ["-s", "sh", "-f", "gcc", "-"], input: Array(script.body.utf8),
            directory: FileManager.default.temporaryDirectory.path, environment: [:], timeout: .seconds(60))
        return run.stdoutText + run.stderr
    }

    /// shellcheck's findings for each of `scripts` that has any, named by the script's step.
    package static func shellcheck(_ scripts: [RemoteScript]) throws -> [String] {
        var findings: [String] = []
        for script in scripts {
            let found = try shellcheck(script)
            if !found.isEmpty { findings.append("\(script.step):\n\(found)") }
        }
        return findings
    }

    /// Runs `script` with `arguments` under `shell`, in `directory`, with `home` as `$HOME`: the
    /// command line rws sends, read by `/bin/sh` as the login shell would, in a process group of
    /// its own (Foundation starts it so; a script may signal its process group). Killed after
    /// `timeout`, or once its output holds `marker` (a loop that never ends by itself).
    package static func run(
        _ script: RemoteScript, _ arguments: [RemoteScript.Argument], shell: Shell, input: [UInt8] = [],
        directory: String, home: String, timeout: Duration = .seconds(30), endingOnceOutputHolds marker: String? = nil
    ) throws -> Run {
        let line = try script.commandLine(arguments, shell: shell.path)
        let environment = [
            "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "SHELL": shell.path, "LC_ALL": "C",
            // No tmux or screen server of this machine's.
            "TMUX_TMPDIR": home, "SCREENDIR": home,
        ]
        return try execute(
            "/bin/sh", ["-c", line], input: input, directory: directory,
            environment: environment, timeout: timeout, endingOnceOutputHolds: marker)
    }

    /// Runs `program` with output to files, so that a process it leaves behind does not hold a pipe open.
    package static func execute(
        _ program: String, _ arguments: [String], input: [UInt8] = [], directory: String,
        environment: [String: String] = [:], timeout: Duration = .seconds(30), endingOnceOutputHolds marker: String? = nil
    ) throws -> Run {
        let ended = try Spawn.capture(
            program, arguments, environment: environment.isEmpty ? nil : environment,
            directory: directory, stdin: input, timeout: timeout, endingOnceOutputHolds: marker)
        return Run(status: ended.status, stdout: ended.output, stderr: ended.stderr)
    }

    /// What does not match between the scripts' `exit N` commands and their declared statuses: a
    /// status a body uses that its script does not declare, or one that a group of scripts
    /// sharing a declaration never uses.
    package static func exitMismatches(_ scripts: [RemoteScript]) -> [String] {
        var problems: [String] = []
        var usedByDeclaration: [[Int32]: Set<Int32>] = [:]
        for script in scripts {
            // 71 means the same in every script: its shell could not open a file (RemoteScript).
            let used = exitLiterals(script).subtracting([0, RemoteScript.outOfDescriptorsStatus])
            let undeclared = used.subtracting(script.exitCodes)
            if !undeclared.isEmpty { problems.append("\(script.step): exit \(undeclared.sorted()) not declared") }
            usedByDeclaration[script.exitCodes, default: []].formUnion(used)
        }
        for (declared, used) in usedByDeclaration where !Set(declared).isSubset(of: used) {
            problems.append("declared \(declared) but no script exits with \(Set(declared).subtracting(used).sorted())")
        }
        return problems
    }

    /// The numbers of the `exit N` commands in `script`'s body (not `exit $status`).
    package static func exitLiterals(_ script: RemoteScript) -> Set<Int32> {
        var found: Set<Int32> = []
        let words = script.body.split(whereSeparator: { " \n\t;{}()|&'\"".contains($0) })
        for (word, next) in zip(words, words.dropFirst()) where word == "exit" {
            if let code = Int32(next) { found.insert(code) }
        }
        return found
    }
}
