/// A terminal session that lives on the box beyond the connection: a named tmux session (or GNU
/// screen session where tmux is missing), so a dropped link or a closed laptop comes back to the
/// same running programs and screen.
///
/// ```swift
/// let shell = try await connection.openPersistentShell(named: "work")   // created on first use
/// // … the link drops; later, on any connection:
/// let again = try await connection.openPersistentShell(named: "work")   // the same programs, redrawn
/// ```
public struct PersistentShell: Sendable, Equatable {
    /// The terminal multiplexer holding the session on the box.
    public enum Multiplexer: String, Sendable, CaseIterable {
        /// tmux (`tmux new-session -A -s NAME`).
        case tmux
        /// GNU screen (`screen -xRR -S NAME`), used when tmux is missing.
        case screen
    }

    /// The session's name.
    public var name: String
    /// The program that holds it.
    public var multiplexer: Multiplexer
    /// How many clients are attached to it now (tmux only; nil for screen).
    public var attachedClients: Int?

    /// A session description.
    public init(name: String, multiplexer: Multiplexer, attachedClients: Int? = nil) {
        self.name = name
        self.multiplexer = multiplexer
        self.attachedClients = attachedClients
    }

    /// Throws unless `name` is 1–64 letters, digits, `_` or `-` (tmux reads `:` and `.` as
    /// targets, screen a leading number as a PID).
    static func validate(_ name: String) throws(SSHError) {
        let allowed = name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }
        guard (1...64).contains(name.utf8.count), allowed, name.first?.isNumber == false else {
            throw .invalidArgument(
                "persistent shell name \(name.debugDescription): use 1 to 64 letters, digits, '_' or '-', starting with a letter")
        }
    }
}

/// The scripts behind persistent shells: constant bodies, the name as a positional argument.
enum PersistentShellScripts {
    /// Prints the first multiplexer found (`tmux`, `screen`), or nothing; honours a preference.
    static let find = RemoteScript(
        step: "finding tmux or screen",
        body: #"""
            for m in $1 tmux screen; do command -v "$m" >/dev/null 2>&1 && { echo "$m"; exit 0; }; done
            exit 0
            """#)

    /// Attaches to session `$2` of multiplexer `$1`, creating it on first use.
    static let attach = RemoteScript(
        step: "attaching to the persistent shell",
        body: #"""
            case $1 in
              tmux) exec tmux new-session -A -s "$2" ;;
              screen) exec screen -xRR -S "$2" ;;
            esac
            """#)

    /// Lists the sessions of every multiplexer present: `tmux|screen NAME ATTACHED`.
    static let list = RemoteScript(
        step: "listing persistent shells",
        body: #"""
            if command -v tmux >/dev/null 2>&1; then
              tmux list-sessions -F 'tmux #{session_name} #{session_attached}' 2>/dev/null
            fi
            if command -v screen >/dev/null 2>&1; then
              screen -ls 2>/dev/null | sed -n 's/^[[:space:]]*[0-9][0-9]*\.\([^[:space:]]*\)[[:space:]].*/screen \1 -/p'
            fi
            exit 0
            """#)

    /// Why ``kill`` failed.
    enum KillExit: Int32, RemoteScriptExit {
        /// No tmux or screen session has that name.
        case noSuchShell = 3
    }

    /// Ends session `$1` wherever it lives; ``KillExit/noSuchShell`` when there is none of that name.
    static let kill = RemoteScript(
        step: "ending the persistent shell", exits: KillExit.self,
        body: #"""
            found=
            if command -v tmux >/dev/null 2>&1 && tmux has-session -t "=$1" 2>/dev/null; then
              tmux kill-session -t "=$1" && found=1
            fi
            if command -v screen >/dev/null 2>&1 && screen -ls 2>/dev/null | grep -q "^[[:space:]]*[0-9]*\.$1[[:space:]]"; then
              screen -S "$1" -X quit && found=1
            fi
            [ -n "$found" ] || exit 3
            """#)

    /// Every script here, for tests.
    static let all = [find, attach, list, kill]

    /// The command line of `script` with `arguments`.
    static func commandLine(_ script: RemoteScript, _ arguments: [String]) throws(SSHError) -> String {
        do {
            return try script.commandLine(arguments.map(RemoteScript.Argument.word))
        } catch {
            throw .invalidArgument("\(error)")
        }
    }
}

extension SSHConnection {
    /// Opens (creating on first use) the persistent terminal session `name` on the box: tmux, or
    /// GNU screen when tmux is missing (or when `multiplexer` asks for it).
    ///
    /// The returned ``InteractiveShell`` is the attached client: closing it, or losing the link,
    /// detaches and leaves the programs running; open it again to come back to them.
    /// ``killPersistentShell(named:)`` ends them.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for an unusable name,
    ///   ``SSHError/persistentShellUnavailable(host:)`` when the box has neither tmux nor screen.
    public func openPersistentShell(
        named name: String, multiplexer: PersistentShell.Multiplexer? = nil,
        _ configuration: ShellConfiguration = ShellConfiguration()
    ) async throws -> InteractiveShell {
        try PersistentShell.validate(name)
        let found = try await run(
            try PersistentShellScripts.commandLine(PersistentShellScripts.find, [multiplexer?.rawValue ?? "tmux"]),
            idempotent: true
        ).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let chosen = PersistentShell.Multiplexer(rawValue: found) else {
            throw SSHError.persistentShellUnavailable(host: self.configuration.host)
        }
        var configuration = configuration
        configuration.command = try PersistentShellScripts.commandLine(PersistentShellScripts.attach, [chosen.rawValue, name])
        return try await openShell(configuration)
    }

    /// The persistent terminal sessions on the box (tmux's and screen's), by name.
    public func listPersistentShells() async throws -> [PersistentShell] {
        let output = try await run(try PersistentShellScripts.commandLine(PersistentShellScripts.list, []), idempotent: true).stdoutText
        return output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 3, let multiplexer = PersistentShell.Multiplexer(rawValue: words[0]) else { return nil }
            return PersistentShell(name: words[1], multiplexer: multiplexer, attachedClients: Int(words[2]))
        }.sorted { $0.name < $1.name }
    }

    /// Ends the persistent terminal session `name` and every program in it.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` when there is no session of that name.
    public func killPersistentShell(named name: String) async throws {
        try PersistentShell.validate(name)
        let result = try await run(try PersistentShellScripts.commandLine(PersistentShellScripts.kill, [name]))
        if result.status == PersistentShellScripts.KillExit.noSuchShell {
            throw SSHError.invalidArgument("no persistent shell named \(name) on the box")
        }
        guard result.status.isSuccess else {
            throw SSHError.channelFailed(operation: "ending persistent shell \(name)", reason: result.stderrText)
        }
    }
}
