import SSHClient

/// Builds the remote command line that runs Claude Code for a conversation.
///
/// Every user value (directory, program, model, session id, environment) goes through
/// ``ShellQuoting``. Stderr markers tell a missing directory or program apart from Claude Code's own failures.
enum ClaudeCommandLine {
    static let missingDirectoryMarker = "rws: that directory does not exist on the box"
    static let missingClaudeMarker = "rws: Claude Code is not installed on the box (not on PATH)"
    static let exitMarker = "rws-conversation:exit:"

    /// The flags of the stream-json protocol; the caller answers permission questions over stdio.
    static let protocolFlags = [
        "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
        "--include-partial-messages", "--permission-prompt-tool", "stdio",
    ]

    /// The arguments of ``run`` for `options`, whose session id is already resolved from a prefix.
    static func arguments(_ options: ClaudeConversationOptions) throws -> [RemoteScript.Argument] {
        try arguments(
            directory: options.directory, executable: options.claudeExecutable,
            environment: options.environment, arguments: protocolFlags + startArguments(options))
    }

    /// The command line for Claude Code's own interactive UI (in a PTY, which ends it with SIGHUP
    /// when the connection goes, so no stdin guard).
    static func interactive(_ options: ClaudeConversationOptions) throws -> String {
        try run.commandLine(
            arguments(
                directory: options.directory, executable: options.claudeExecutable, environment: options.environment,
                arguments: startArguments(options), guarded: false))
    }

    private static func startArguments(_ options: ClaudeConversationOptions) -> [String] {
        var arguments: [String] = []
        if let mode = options.permissionMode { arguments += ["--permission-mode", mode.rawValue] }
        // `--flag=value`: a value starting with "-" cannot be read as another flag.
        if let model = options.model { arguments.append("--model=" + model) }
        switch options.start {
        case .new: break
        case .resume(let id): arguments.append("--resume=" + id)
        case .continueMostRecent: arguments.append("--continue")
        }
        if options.fork, options.start != .new { arguments.append("--fork-session") }
        return arguments
    }

    /// Why the script stopped before Claude Code ran.
    enum Exit: Int32, RemoteScriptExit {
        /// The directory does not exist (``missingDirectoryMarker`` on stderr).
        case missingDirectory = 2
        /// Claude Code is not on `PATH` (``missingClaudeMarker`` on stderr).
        case missingClaude = 127
    }

    /// `cd DIR`, check EXE, then `{ cat; kill -TERM 0; } | { env K=V EXE ARGS…; …; kill -TERM 0; }`; the two
    /// preconditions are reported by marker.
    static func arguments(
        directory: String?, executable: String, environment: [String: String], arguments: [String],
        guarded: Bool = true
    ) throws -> [RemoteScript.Argument] {
        let command = try programWords(executable: executable, environment: environment, arguments: arguments)
        let head: [RemoteScript.Argument] = [
            .word(guarded ? "1" : "0"), .word(directory == nil ? "0" : "1"), .path(directory ?? ""), .path(executable),
            .word(missingDirectoryMarker), .word(missingClaudeMarker), .word(exitMarker), .word(String(command.assignments)),
        ]
        return head + command.words
    }

    /// The arguments of `DetachedClaudeScripts.start` that start Claude Code detached as conversation `id`.
    static func detachedStart(_ options: ClaudeConversationOptions, id: String, idleSeconds: Int) throws -> [RemoteScript.Argument] {
        let command = try programWords(
            executable: options.claudeExecutable, environment: options.environment,
            arguments: protocolFlags + startArguments(options))
        let head: [RemoteScript.Argument] = [
            .path(DetachedClaudeScripts.folder), .word(id), .word(String(idleSeconds)), .word(DetachedClaudeScripts.keeper.body),
            .word(options.directory == nil ? "0" : "1"), .path(options.directory ?? ""), .path(options.claudeExecutable),
            .word(missingDirectoryMarker), .word(missingClaudeMarker),
        ]
        return head + command.words
    }

    /// `env`'s words: the environment assignments (checked), the program and its arguments.
    private static func programWords(
        executable: String, environment: [String: String], arguments: [String]
    ) throws -> (words: [RemoteScript.Argument], assignments: Int) {
        for name in environment.keys where !isVariableName(name) {
            throw ClaudeConversationError.invalidOption("\"\(name)\" is not an environment variable name")
        }
        guard !executable.isEmpty else { throw ClaudeConversationError.invalidOption("the Claude Code program name is empty") }
        let assignments = environment.sorted { $0.key < $1.key }.map { RemoteScript.Argument.word("\($0.key)=\($0.value)") }
        return (assignments + [.path(executable)] + arguments.map(RemoteScript.Argument.word), assignments.count)
    }

    /// `$1` 1 to guard stdin, `$2` 1 to change to directory `$3`, `$4` the program, `$5`–`$7` the
    /// markers, `$8` the number N of environment assignments; then those N assignments, the
    /// program again and its arguments.
    ///
    /// Installers put claude in ~/.local/bin or ~/.claude/local, which a non-login shell's PATH may lack.
    /// Guarded, Claude Code reads its stdin through cat: when the SSH channel's stdin ends (the client
    /// went away) the whole process group is killed, tools included, instead of the turn running
    /// on with no one to read it. When Claude Code exits by itself, its status goes to stderr
    /// and the group (cat) is killed too, so the channel closes.
    static let run = RemoteScript(
        step: "starting Claude Code", exits: Exit.self,
        body: #"""
            PATH="$PATH:$HOME/.local/bin:$HOME/.claude/local"; export PATH
            guarded=$1 program=$4 exitmarker=$7 n=$8
            if [ "$2" = 1 ]; then cd "$3" 2>/dev/null || { echo "$5" >&2; exit 2; }; fi
            command -v "$program" >/dev/null 2>&1 || { echo "$6" >&2; exit 127; }
            shift 8
            if [ "$guarded" != 1 ]; then
              if [ "$n" -gt 0 ]; then exec env "$@"; fi
              exec "$@"
            fi
            { cat; kill -TERM 0; } | { if [ "$n" -gt 0 ]; then env "$@"; else "$@"; fi; echo "$exitmarker$?" >&2; kill -TERM 0; }
            """#)

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
