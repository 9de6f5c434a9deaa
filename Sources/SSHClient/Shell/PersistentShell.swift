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

    /// How ``SSHConnection/openPersistentShell(named:multiplexer:opening:_:)`` treats the session.
    public enum Opening: String, Sendable {
        /// Attach to the session, creating it when it is not there.
        case attachOrCreate = "create"
        /// Attach only to a running session, detaching its other clients (the last one to attach has it).
        case takeOver = "takeover"
        /// Attach only to a running session, beside its other clients: a reattach after a lost
        /// link, which must not start afresh a session that ended meanwhile.
        case attachOnly = "attach"
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

    /// Attaches to session `$2` of multiplexer `$1`. `$3` `create` makes it on first use, running
    /// command line `$4` (the login shell when empty) with the attaching login's `HOME` (a tmux
    /// server started by another login would give its own); `$3` `takeover` detaches its other
    /// clients first; `$3` `attach` joins them. Neither `takeover` nor `attach` ever creates.
    /// The command's exit status is kept in `~/.cache/rws/persistent/NAME.status` (tmux and
    /// screen end with 0 whatever it was), for ``status`` to give back. tmux `-u` and screen `-U`:
    /// the terminal at the other end takes UTF-8 even where the box has no UTF-8 locale, which
    /// would otherwise make them draw every character beyond ASCII as `_`.
    static let attach = RemoteScript(
        step: "attaching to the persistent shell",
        body: #"""
            # A marker says the session is rws's, for `list`: a user's own tmux sessions are not.
            mkdir -p "$HOME/.cache/rws/persistent" 2>/dev/null && : >"$HOME/.cache/rws/persistent/$2.rws"
            case $1:$3 in
              tmux:takeover) exec tmux -u attach-session -d -t "=$2" ;;
              screen:takeover) exec screen -U -d -r "$2" ;;
              tmux:attach) exec tmux -u attach-session -t "=$2" ;;
              screen:attach) exec screen -U -x "$2" ;;
            esac
            if [ -n "$4" ]; then
              k="$HOME/.cache/rws/persistent"
              rm -f "$k/$2.status"
              # shellcheck disable=SC2016 # expanded by the inner shell, from its arguments
              set -- "$1" "$2" env "HOME=$HOME" /bin/sh -c '/bin/sh -c "$1"; s=$?
                mkdir -p "$2" && printf "%s\n" "$s" > "$2/$3.status"; exit "$s"' rws-persistent "$4" "$k" "$2"
            else
              set -- "$1" "$2"
            fi
            case $1 in
              tmux) shift; exec tmux -u new-session -A -s "$@" ;;
              screen) shift; exec screen -U -xRR -S "$@" ;;
            esac
            """#)

    /// Why ``named`` failed.
    enum Exit: Int32, RemoteScriptExit {
        /// No tmux or screen session has that name.
        case noSuchShell = 3
        /// tmux or screen did not end it (its message on stderr).
        case killFailed = 4
    }

    /// Session `$2`, wherever it lives (tmux first): `$1` `locate` prints its multiplexer, `kill`
    /// ends it in each and returns once none lists it; ``Exit/noSuchShell`` when none holds it.
    static let named = RemoteScript(
        step: "finding the persistent shell", exits: Exit.self,
        body: #"""
            holds() {
              command -v "$1" >/dev/null 2>&1 || return 1
              case $1 in
                tmux) tmux has-session -t "=$2" 2>/dev/null ;;
                screen) screen -ls 2>/dev/null | grep -q "^[[:space:]]*[0-9]*\.$2[[:space:]]" ;;
              esac
            }
            found=
            for m in tmux screen; do
              holds "$m" "$2" || continue
              found=1
              case $1:$m in
                locate:*) echo "$m"; exit 0 ;;
                kill:tmux) tmux kill-session -t "=$2" || exit 4 ;;
                kill:screen) screen -S "$2" -X quit || exit 4 ;;
              esac
            done
            [ -n "$found" ] || exit 3
            [ "$1" = kill ] || exit 0
            rm -f "$HOME/.cache/rws/persistent/$2.rws"
            # screen quits after answering: say "ended" only once neither lists the session (50
            # looks, 0.1 s apart where sleep takes fractions).
            n=0
            while holds tmux "$2" || holds screen "$2"; do
              n=$((n+1))
              [ $n -le 50 ] || { echo "$2 is still listed 50 looks after it was told to end" >&2; exit 4; }
              sleep 0.1 2>/dev/null || sleep 1
            done
            """#)

    /// Lists rws's sessions (those ``attach`` marked) of every multiplexer present:
    /// `tmux|screen NAME ATTACHED`; markers of sessions that ended a day ago or more are removed.
    static let list = RemoteScript(
        step: "listing persistent shells",
        body: #"""
            k=$HOME/.cache/rws/persistent
            all=$(
              if command -v tmux >/dev/null 2>&1; then
                tmux list-sessions -F 'tmux #{session_name} #{session_attached}' 2>/dev/null
              fi
              if command -v screen >/dev/null 2>&1; then
                screen -ls 2>/dev/null | sed -n 's/^[[:space:]]*[0-9][0-9]*\.\([^[:space:]]*\)[[:space:]].*/screen \1 -/p'
              fi
            )
            printf '%s\n' "$all" | while read -r m n a; do
              [ -n "$n" ] && [ -f "$k/$n.rws" ] && printf '%s %s %s\n' "$m" "$n" "$a"
            done
            for f in "$k"/*.rws; do
              [ -f "$f" ] || continue
              s=${f##*/} s=${s%.rws}
              printf '%s\n' "$all" | grep -qF -- " $s " && continue
              # Only a day-old marker goes: a newer one may be a session starting since the list
              # above was read (attach marks before tmux or screen makes the session).
              [ -n "$(find "$f" -mtime +0 2>/dev/null)" ] && rm -f "$f"
            done
            exit 0
            """#)

    /// Prints and removes the exit status kept for session `$1`'s command (nothing when none is).
    static let status = RemoteScript(
        step: "reading the persistent shell's exit status",
        body: #"""
            f="$HOME/.cache/rws/persistent/$1.status"
            [ -f "$f" ] || exit 0
            cat "$f" && rm -f "$f"
            """#)

    /// Every script here, for tests.
    static let all = [find, attach, named, list, status]

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
    /// Opens the persistent terminal session `name` on the box: tmux, or GNU screen when tmux is
    /// missing (or when `multiplexer` asks for it).
    ///
    /// With ``PersistentShell/Opening/attachOrCreate`` a missing session is created, running
    /// `configuration.command` (the login shell when nil; run by `/bin/sh`); a running one is
    /// attached as it is, its command unchanged. ``PersistentShell/Opening/takeOver`` attaches only
    /// to a running session, wherever it lives, and detaches its other clients;
    /// ``PersistentShell/Opening/attachOnly`` attaches only to a running one, beside them.
    ///
    /// The returned ``InteractiveShell`` is the attached client: closing it, or losing the link,
    /// detaches and leaves the programs running; open it again to come back to them.
    /// ``killPersistentShell(named:)`` ends them. When the session's command exits, the session
    /// ends, and the shell with status 0 whatever the command's own status:
    /// ``takePersistentShellExitStatus(named:)`` gives that status.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for an unusable name,
    ///   ``SSHError/persistentShellUnavailable(host:)`` when the box has neither tmux nor screen,
    ///   ``SSHError/persistentShellNotFound(name:host:)`` when taking over a session that is not there.
    public func openPersistentShell(
        named name: String, multiplexer: PersistentShell.Multiplexer? = nil, opening: PersistentShell.Opening = .attachOrCreate,
        _ configuration: ShellConfiguration = ShellConfiguration()
    ) async throws -> InteractiveShell {
        try PersistentShell.validate(name)
        let chosen: PersistentShell.Multiplexer
        switch opening {
        case .attachOrCreate:
            let found = try await PersistentShellScripts.find.result(
                on: self, [.word(multiplexer?.rawValue ?? "tmux")], timeout: nil, idempotent: true
            ).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let multiplexer = PersistentShell.Multiplexer(rawValue: found) else {
                throw SSHError.persistentShellUnavailable(host: self.configuration.host)
            }
            chosen = multiplexer
        case .takeOver, .attachOnly:
            chosen = try await persistentShellMultiplexer(named: name)
        }
        var configuration = configuration
        configuration.command = try PersistentShellScripts.commandLine(
            PersistentShellScripts.attach, [chosen.rawValue, name, opening.rawValue, configuration.command ?? ""])
        return try await openShell(configuration)
    }

    /// The multiplexer holding session `name`.
    private func persistentShellMultiplexer(named name: String) async throws -> PersistentShell.Multiplexer {
        let result = try await PersistentShellScripts.named.run(
            on: self, [.word("locate"), .word(name)], timeout: nil, idempotent: true,
            failure: namedFailure(name, operation: "finding persistent shell \(name)"))
        let printed = result.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
        guard let found = PersistentShell.Multiplexer(rawValue: printed) else {
            throw SSHError.channelFailed(operation: "finding persistent shell \(name)", reason: result.stderrText)
        }
        return found
    }

    /// The exit status of the command a persistent session `name` ran, once the session ended
    /// with it (tmux and screen pass on none; the attach script keeps it on the box), and forgets
    /// it; nil when none is kept (the session runs, was detached, or ran the login shell).
    public func takePersistentShellExitStatus(named name: String) async throws -> Int32? {
        try PersistentShell.validate(name)
        let result = try await PersistentShellScripts.status.result(on: self, [.word(name)], timeout: nil, idempotent: false)
        return Int32(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The persistent terminal sessions rws opened on the box (tmux's and screen's), by name; the
    /// user's own sessions are not among them.
    public func listPersistentShells() async throws -> [PersistentShell] {
        let output = try await PersistentShellScripts.list.result(on: self, timeout: nil, idempotent: true).stdoutText
        return output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 3, let multiplexer = PersistentShell.Multiplexer(rawValue: words[0]) else { return nil }
            return PersistentShell(name: words[1], multiplexer: multiplexer, attachedClients: Int(words[2]))
        }.sorted { $0.name < $1.name }
    }

    /// Ends the persistent terminal session `name` and every program in it; returns once tmux and
    /// screen no longer list it (screen quits a moment after it is told to).
    ///
    /// - Throws: ``SSHError/persistentShellNotFound(name:host:)`` when there is no session of that
    ///   name; ``SSHError/channelFailed(operation:reason:)`` when it is still listed 5 s later (50 s
    ///   on a box whose `sleep` takes whole seconds only).
    public func killPersistentShell(named name: String) async throws {
        try PersistentShell.validate(name)
        _ = try await PersistentShellScripts.named.run(
            on: self, [.word("kill"), .word(name)], timeout: nil, failure: namedFailure(name, operation: "ending persistent shell \(name)"))
    }

    /// What a failed `named` script means: no session of that name, or `operation` failed.
    private func namedFailure(_ name: String, operation: String) -> (CommandResult) -> any Error {
        { [host = configuration.host] result in
            if result.status == PersistentShellScripts.Exit.noSuchShell { return SSHError.persistentShellNotFound(name: name, host: host) }
            return SSHError.channelFailed(operation: operation, reason: result.stderrText)
        }
    }
}
