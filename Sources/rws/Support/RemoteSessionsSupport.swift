import Foundation
import RemoteWorkspace
import SSHClient

/// Opens the session browser of the box named by the connection options, with the per-host
/// listing cache under the user's cache folder.
enum RemoteSessionsSupport {
    /// Connects (re-establishing a lost link by `reconnect`, if given), runs `body` with the box's
    /// sessions, and closes the connection on every path.
    static func with<T>(
        _ connection: ConnectionOptions, _ workspace: WorkspaceOptions, reconnect: ReconnectPolicy? = nil,
        _ body: (RemoteSessions) async throws -> T
    ) async throws -> T {
        try await withBox(connection, workspace, reconnect: reconnect) { sessions, _ in try await body(sessions) }
    }

    /// ``with(_:_:reconnect:_:)`` for a `body` that also uses the connection itself.
    static func withBox<T>(
        _ connection: ConnectionOptions, _ workspace: WorkspaceOptions, reconnect: ReconnectPolicy? = nil,
        _ body: (RemoteSessions, SSHConnection) async throws -> T
    ) async throws -> T {
        try await connection.withConnection(reconnect: reconnect) { ssh in
            try await body(
                RemoteSessions(
                    connection: ssh, locations: workspace.locations(),
                    cache: SessionListingCache(for: ssh.configuration, environment: ProcessEnvironment.current)), ssh)
        }
    }

    /// Whether a session argument names a box's session rather than a local file: a host was
    /// given (flag or RWS_HOST), or the argument neither exists here nor looks like a path.
    static func isRemote(
        _ session: String, connection: ConnectionOptions,
        environment: [String: String] = ProcessEnvironment.current
    ) -> Bool {
        if connection.host != nil || environment["RWS_HOST"].map({ !$0.isEmpty }) == true { return true }
        return !looksLikeLocalPath(session) && !FileManager.default.fileExists(atPath: NSString(string: session).expandingTildeInPath)
    }

    /// Whether an argument is written as a path on this machine (`/`, `./`, `../`, `~`, `.jsonl`):
    /// such an argument never names a session id on a box, so a typo in it is a missing file.
    static func looksLikeLocalPath(_ argument: String) -> Bool {
        ["/", "./", "../", "~"].contains(where: argument.hasPrefix) || argument.hasSuffix(".jsonl") || argument == "." || argument == ".."
    }

    /// The local session file an argument names, checked to exist (exit 66 when it does not).
    static func localSessionFile(_ session: String) throws -> URL {
        let path = NSString(string: session).expandingTildeInPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.failed(
                "no such file: \(session) (a session file on this machine); check the path, or give --host for a session on a box",
                code: RWSExitCode.noInput)
        }
        return URL(fileURLWithPath: path)
    }

    /// The local folder `--local` names, checked to be one (exit 66 when it is not); `what` says
    /// which folder is meant, for the message.
    static func localFolder(
        _ argument: String, what: String = "a Claude Code project folder on this machine (one under ~/.claude/projects)"
    )
        throws -> URL
    {
        let path = NSString(string: argument).expandingTildeInPath
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError.failed("--local \(argument): no such folder; give \(what)", code: RWSExitCode.noInput)
        }
        return URL(fileURLWithPath: path)
    }
}
