import Foundation

/// A private tmux server (own socket) with one pane running a plain local bash, for driving
/// `rws shell` as a person at a terminal would. ``stop()`` kills the server; call it on every path.
public struct Tmux: Sendable {
    /// The private server's socket name (`tmux -L`).
    public let socket = "rws-test-\(UUID().uuidString.prefix(8))"
    /// The prompt of the pane's bash.
    public static let localPrompt = "local$ "

    /// Starts the pane (`columns`×`rows`, no status line) with HOME set to `home`.
    public static func start(home: String, columns: Int = 120, rows: Int = 40) throws -> Tmux {
        try Prerequisites.require("/usr/bin/tmux", package: "tmux")
        let tmux = Tmux()
        let shell =
            "env -i HOME=\(home) PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 PS1='\(localPrompt)' "
            + "bash --norc --noprofile"
        try tmux.command(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(columns)", "-y", "\(rows)", shell])
        try tmux.command(["set-option", "-t", "main", "status", "off"])
        return tmux
    }

    /// Runs a tmux command against the private server; returns its stdout.
    @discardableResult
    public func command(_ arguments: [String]) throws -> String {
        try Spawn.run("/usr/bin/tmux", ["-L", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"])
    }

    /// Types `text` literally, then Enter unless told otherwise.
    public func type(_ text: String, enter: Bool = true) throws {
        try command(["send-keys", "-t", "main", "-l", text])
        if enter { try command(["send-keys", "-t", "main", "Enter"]) }
    }

    /// Presses keys by tmux name (`C-c`, `Enter`).
    public func press(_ keys: String...) throws {
        try command(["send-keys", "-t", "main"] + keys)
    }

    /// What the pane shows now, a line the pane wrapped joined again (`-J`): what a test looks
    /// for must not depend on where the pane's width cut it (a longer temporary path moves a
    /// question's `[N]o:` onto the next row). `-J` keeps trailing spaces; they are dropped, as
    /// a plain capture does.
    public func screen() throws -> String {
        try command(["capture-pane", "-p", "-J", "-t", "main"]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.reversed().drop { $0 == " " }.reversed() }.map { String($0) }.joined(separator: "\n")
    }

    /// Waits until `condition` holds for the screen; fails with the screen after `limit`.
    ///
    /// Every look starts a tmux client: 50 ms apart (25 ms spent twice the processes for the
    /// same tests), and 20 s by default, since a suite's busy moments starved 10 s.
    @discardableResult
    public func wait(within limit: Duration = .seconds(20), for what: String, until condition: (String) -> Bool) async throws -> String {
        var shown = ""
        let found = try await Eventually.value(within: limit) { () throws -> String? in
            shown = try screen()
            return condition(shown) ? shown : nil
        }
        guard let found else { throw TestServerError.commandFailed("tmux pane never showed \(what); it shows:\n\(shown)") }
        return found
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    public func wait(for text: String, within limit: Duration = .seconds(20)) async throws -> String {
        try await wait(within: limit, for: text.debugDescription) { $0.contains(text) }
    }

    /// Waits until the last non-empty line of the screen is `line` (trailing spaces ignored).
    public func waitForLastLine(_ line: String, within limit: Duration = .seconds(20)) async throws {
        let wanted = line.trimmingCharacters(in: .whitespaces)
        try await wait(within: limit, for: "a last line \(wanted.debugDescription)") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces) == wanted
        }
    }

    /// PID of the process running in the pane (the local bash).
    public func panePID() throws -> Int32 {
        Int32(try command(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Kills the private tmux server and everything in its pane.
    public func stop() {
        _ = try? command(["kill-server"])
    }
}
