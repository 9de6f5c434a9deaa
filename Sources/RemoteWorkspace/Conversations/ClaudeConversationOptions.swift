import SSHClient

/// Which conversation a ``ClaudeConversation`` continues.
public enum ClaudeConversationStart: Sendable, Equatable {
    /// A new conversation.
    case new
    /// The session with this id, or the only one whose id starts with it.
    case resume(String)
    /// The most recent conversation in the project directory (`--continue`).
    case continueMostRecent
}

/// How a ``ClaudeConversation`` starts Claude Code on the box.
public struct ClaudeConversationOptions: Sendable, Equatable {
    /// The directory on the box Claude Code runs in (`~/` allowed). Nil: the session's own
    /// directory when resuming, else the remote home.
    public var directory: String?
    /// New, resumed or most recent conversation.
    public var start: ClaudeConversationStart
    /// Continue a resumed conversation under a new session id, leaving the original as it was.
    public var fork: Bool
    /// The permission mode; nil keeps Claude Code's configured default.
    public var permissionMode: ClaudePermissionMode?
    /// The model (`--model`, an alias such as `sonnet` or a full name); nil keeps the default.
    public var model: String?
    /// The Claude Code program on the box: a name looked up on `PATH` (plus `~/.local/bin` and
    /// `~/.claude/local`, where its installers put it) or an absolute path.
    public var claudeExecutable: String
    /// Environment variables set for Claude Code only (for example `ANTHROPIC_BASE_URL`).
    public var environment: [String: String]
    /// Where Claude Code keeps its data on the box, used to resolve session id prefixes.
    public var locations: WorkspaceLocations
    /// How long ``ClaudeConversation/start(on:options:)`` waits for Claude Code to answer the
    /// `initialize` request before it stops it.
    public var startTimeout: Duration
    /// Nil: Claude Code runs on the SSH channel and ends with it. Set: it runs detached on the
    /// box, goes on when the link drops, and the conversation attaches again when the connection
    /// is back (it needs a connection with a reconnect policy), replaying what it missed.
    public var detached: ClaudeDetachedPolicy?
    /// Whether ``resolved(on:)`` made these options (a resumed id is already the full one).
    var isResolved = false

    /// Options for a conversation; every value has a default.
    ///
    /// - Parameters:
    ///   - directory: The directory on the box Claude Code runs in.
    ///   - start: New, resumed or most recent conversation.
    ///   - fork: Continue a resumed conversation under a new session id.
    ///   - permissionMode: The permission mode.
    ///   - model: The model.
    ///   - claudeExecutable: The Claude Code program on the box.
    ///   - environment: Environment variables for Claude Code.
    ///   - locations: Where Claude Code keeps its data on the box.
    ///   - startTimeout: How long to wait for Claude Code's answer to `initialize`.
    ///   - detached: Run Claude Code detached from the SSH channel (nil: on it).
    public init(
        directory: String? = nil, start: ClaudeConversationStart = .new, fork: Bool = false,
        permissionMode: ClaudePermissionMode? = nil, model: String? = nil,
        claudeExecutable: String = "claude", environment: [String: String] = [:],
        locations: WorkspaceLocations = WorkspaceLocations(), startTimeout: Duration = .seconds(60),
        detached: ClaudeDetachedPolicy? = nil
    ) {
        self.directory = directory
        self.start = start
        self.fork = fork
        self.permissionMode = permissionMode
        self.model = model
        self.claudeExecutable = claudeExecutable
        self.environment = environment
        self.locations = locations
        self.startTimeout = startTimeout
        self.detached = detached
    }
}

extension ClaudeConversationOptions {
    /// These options with a ``ClaudeConversationStart/resume(_:)`` prefix replaced by the full
    /// session id (``RemoteSessions/findSession(_:)``), and the session's own directory when
    /// ``directory`` is nil.
    ///
    /// - Parameter connection: The connection to the box.
    /// - Throws: ``RemoteSessionError`` when no session or several match.
    public func resolved(on connection: SSHConnection) async throws -> ClaudeConversationOptions {
        guard case .resume(let prefix) = start, !isResolved else { return self }
        let listing = try await RemoteSessions(connection: connection, locations: locations, cache: nil).findSession(prefix)
        var resolved = self
        resolved.isResolved = true
        resolved.start = .resume(listing.id)
        if resolved.directory == nil { resolved.directory = listing.summary.cwd }
        return resolved
    }

    /// Checks on the box, with one remote command, that ``directory`` exists and that each of
    /// `files` (paths relative to it, `~/` allowed, as ``ClaudePrompt/files`` takes them) does,
    /// before anything is started or sent there. Resolve a session prefix first with ``resolved(on:)``.
    ///
    /// - Parameters:
    ///   - connection: The connection to the box.
    ///   - files: Paths on the box that have to exist.
    /// - Throws: ``ClaudeConversationError/directoryNotFound(_:)``,
    ///   ``ClaudeConversationError/filesNotFound(_:directory:)``, `SSHError` when the connection fails.
    public func check(on connection: SSHConnection, files: [String] = []) async throws {
        let arguments: [RemoteScript.Argument] = [.word(directory == nil ? "0" : "1"), .path(directory ?? "")] + files.map { .path($0) }
        _ = try await Self.checkScript.run(on: connection, arguments, timeout: .seconds(60)) { [directory] result in
            switch result.status.scriptExit(CheckExit.self) {
            case .missingDirectory:
                return ClaudeConversationError.directoryNotFound(directory ?? "~")
            case .missingFiles:
                let missing = result.stdoutText.split(separator: "\n").compactMap { Int($0) }.filter(files.indices.contains).map {
                    files[$0]
                }
                return ClaudeConversationError.filesNotFound(missing, directory: directory ?? "~")
            case nil:
                return ClaudeConversationError.processExited(status: result.status.description, stderr: result.stderrText)
            }
        }
    }

    /// Why ``checkScript`` failed.
    enum CheckExit: Int32, RemoteScriptExit {
        /// The directory does not exist.
        case missingDirectory = 2
        /// Some files do not exist; their indexes (from 0) are on stdout, one a line.
        case missingFiles = 3
    }

    /// `$1` 1 to change to directory `$2`; then the files, each checked with `-e`.
    static let checkScript = RemoteScript(
        step: "checking the directory and files on the box", exits: CheckExit.self,
        body: #"""
            if [ "$1" = 1 ]; then cd "$2" 2>/dev/null || exit 2; fi
            shift 2
            i=0 missing=0
            for f in "$@"; do
              [ -e "$f" ] || { echo "$i"; missing=1; }
              i=$((i + 1))
            done
            [ "$missing" = 0 ] || exit 3
            """#)

    /// The command line that runs Claude Code's own interactive UI with these options (for a
    /// remote terminal: `ShellConfiguration(command:)`). Resolve a session prefix first with
    /// ``resolved(on:)``.
    public func interactiveCommandLine() throws -> String {
        try ClaudeCommandLine.interactive(self)
    }
}
