import Foundation
import Synchronization

/// One ``TestSSHServer`` of each kind per test process for the tests that do not stop or break
/// their server; stopped when the process exits.
public enum SharedTestServer {
    private static let servers = Mutex<[ServerKind: TestSSHServer]>([:])

    /// The shared server of ``ServerKind/default``, started on first use.
    public static func get() throws -> TestSSHServer {
        try get(.default)
    }

    /// The shared server of `kind`, started on first use.
    public static func get(_ kind: ServerKind) throws -> TestSSHServer {
        try servers.withLock { current in
            if let server = current[kind] { return server }
            let started = try TestSSHServer(kind)
            if current.isEmpty { atexit { SharedTestServer.stopAtExit() } }
            current[kind] = started
            return started
        }
    }

    private static func stopAtExit() {
        servers.withLock { current in
            for server in current.values { server.stop() }
            current = [:]
        }
    }
}
