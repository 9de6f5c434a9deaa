import Foundation
import Platform
import SSHClient

/// The real Claude Code CLI the conversation tests run on the test box: the one bundled in the
/// `claude-agent-sdk` wheel, which `scripts/test` unpacks into a cache folder keyed by version.
public enum ClaudeCodeCLI {
    /// The pinned release, from `scripts/lib/claude-agent-sdk-pinned` (its first line starting
    /// with a digit): `scripts/test` runs the Claude Code tests against it and the newest.
    public static var pinnedSDKVersion: String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../scripts/lib/claude-agent-sdk-pinned")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.first?.isNumber == true }.map(String.init) ?? "(unreadable: \(file.path))"
    }

    /// `~/.cache/rws-test/claude-agent-sdk`, holding one folder per version and `current`.
    public static var cacheFolder: String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/rws-test/claude-agent-sdk"
    }

    /// The `claude-agent-sdk` release whose bundled CLI the tests run: `RWS_CLAUDE_AGENT_SDK_VERSION`
    /// when set (`scripts/test` sets it for its run against the pinned release), else the newest
    /// `scripts/test` installed (written in `current`), else the pinned one.
    public static var sdkVersion: String {
        if let chosen = ProcessInfo.processInfo.environment["RWS_CLAUDE_AGENT_SDK_VERSION"], !chosen.isEmpty { return chosen }
        let current = (try? String(contentsOfFile: cacheFolder + "/current", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return current.flatMap { $0.isEmpty ? nil : $0 } ?? pinnedSDKVersion
    }

    /// `~/.cache/rws-test/claude-agent-sdk/<version>`, where `scripts/test` unpacks the wheel.
    public static var installFolder: String { cacheFolder + "/" + sdkVersion }

    /// The CLI program.
    public static var path: String { installFolder + "/claude_agent_sdk/_bundled/claude" }

    /// The CLI program; fails with the command that installs it when it is missing.
    public static func require() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError.missingPrerequisite(
                path: path, installCommand: "scripts/test (it runs: source scripts/lib/prerequisites.sh; install_claude_cli)")
        }
        return path
    }

    /// Puts `claude` on the test box in the sandbox home's `~/.local/bin`, where Claude Code's
    /// installer puts it and where the conversation command line looks: a launcher that `exec`s
    /// the CLI (the same process, PID and command line), with ``streamJSONEngineEnvironment``
    /// when it is asked to speak stream-json. Claude Code started through rws cannot get the
    /// engine's flags otherwise: its settings' `env` is read after the engine started.
    public static func install(on server: TestSSHServer) throws {
        let program = try require()
        let bin = server.remoteHome + "/.local/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let assignments = streamJSONEngineEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let launcher = """
            #!/bin/sh
            case " $* " in *" stream-json "*) exec \(try ShellQuoting.commandLine(["env"] + assignments + [program])) "$@" ;; esac
            exec \(try ShellQuoting.quote(program)) "$@"

            """
        let path = bin + "/claude"
        if (try? String(contentsOfFile: path, encoding: .utf8)) != launcher {
            try? FileManager.default.removeItem(atPath: path)
            try launcher.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
    }

    /// How the tests run Claude Code's JavaScript engine for a stream-json run (`-p`, a
    /// conversation): without its JIT, ~0.1 CPU-seconds less a start (1.28 against 1.39, six
    /// `-p` turns each way here). Not for the interactive UI, which draws for seconds: 3.0
    /// against 3.6 CPU-seconds over 8 s with the JIT (three runs each way). In one run's process
    /// accounting the suite's ~110 starts took ~150 CPU-seconds. What it writes and sends is the same.
    public static let streamJSONEngineEnvironment = ["BUN_JSC_useJIT": "0"]

    /// The environment that points Claude Code at `server` with a test key, no traffic of its
    /// own and no retries (so scripted API errors end the turn at once).
    public static func environment(for server: ScriptedModelServer, apiKey: String? = "sk-test") -> [String: String] {
        var environment = [
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:\(server.port)",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
            // Tests run as root in containers; Claude Code refuses bypassPermissions for root elsewhere.
            "IS_SANDBOX": "1",
        ]
        if let apiKey { environment["ANTHROPIC_API_KEY"] = apiKey }
        return environment
    }

    /// The processes (pid and command line) whose working directory is `directory`: how tests
    /// check on the box's process table that Claude Code and the tools it started are gone.
    public static func processes(in directory: String) -> [(pid: Int32, command: String)] {
        let target = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        return LocalProcessTable.pids().compactMap { pid in
            guard pid != SystemCall.processID,
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                cwd == target,
                let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !raw.isEmpty
            else { return nil }
            // Zombies keep no cmdline; an empty one was skipped above.
            let command = String(decoding: raw.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return (pid, command)
        }
    }

    /// The process in `directory` that started first: Claude Code itself, where it starts
    /// short-lived helpers in its project. By start time, not PID: PIDs wrap (at 32,768 here),
    /// and a helper started after a wrap has the lower one.
    public static func oldestProcess(in directory: String) -> Int32? {
        processes(in: directory).map { (pid: $0.pid, started: startTime(of: $0.pid)) }.min { $0.started < $1.started }?.pid
    }

    /// When `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd field); gone: never.
    private static func startTime(of pid: Int32) -> UInt64 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return .max }
        // The fields after the command's closing parenthesis start at the third (the state).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) ?? .max : .max
    }

    /// The sshd processes serving the connection whose remote command is `pid`: its ancestors up
    /// to (not including) the listening sshd. Killing them drops that one connection.
    public static func sessionDaemons(above pid: Int32) -> [Int32] {
        var result: [Int32] = []
        var current = pid
        while let parent = parentPID(of: current), parent > 1 {
            let command = commandLine(of: parent)
            guard command.hasPrefix("sshd") || command.contains("/sshd") else { break }
            if command.contains(" -D ") { break }  // the listener
            result.append(parent)
            current = parent
        }
        return result
    }

    private static func parentPID(of pid: Int32) -> Int32? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("PPid:") {
            return Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    private static func commandLine(of pid: Int32) -> String {
        let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: raw.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}
