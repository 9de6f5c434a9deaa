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
        try await connection.withConnection(reconnect: reconnect) { ssh in
            try await body(
                RemoteSessions(
                    connection: ssh, locations: workspace.locations(),
                    cache: SessionListingCache(for: ssh.configuration)))
        }
    }

    /// Whether a session argument names a box's session rather than a local file: a host was
    /// given (flag or RWS_HOST) or no such local file exists.
    static func isRemote(
        _ session: String, connection: ConnectionOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        if connection.host != nil || environment["RWS_HOST"].map({ !$0.isEmpty }) == true { return true }
        return !FileManager.default.fileExists(atPath: NSString(string: session).expandingTildeInPath)
    }
}
