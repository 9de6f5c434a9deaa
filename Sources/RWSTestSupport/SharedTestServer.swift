import Foundation
import Synchronization

/// One ``TestSSHServer`` per test process for the tests that do not stop or break their server;
/// stopped when the process exits.
public enum SharedTestServer {
    private static let server = Mutex<TestSSHServer?>(nil)

    /// The shared server, started on first use.
    public static func get() throws -> TestSSHServer {
        try server.withLock { current in
            if let current { return current }
            let started = try TestSSHServer()
            current = started
            atexit { SharedTestServer.stopAtExit() }
            return started
        }
    }

    private static func stopAtExit() {
        server.withLock { current in
            current?.stop()
            current = nil
        }
    }
}
