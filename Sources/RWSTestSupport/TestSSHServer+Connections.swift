import Foundation

extension TestSSHServer {
    /// How many processes run under the listening server: one or more per open connection, none
    /// when no client is connected. Read from the process table (`/proc`); for OpenSSH every
    /// process under the listener its PidFile names, for dropbear its own processes there.
    public func connectionProcessCount() throws -> Int {
        // dropbear: its processes for connections (not the watchdog's shell and sleep).
        if kind == .dropbear { return connectionProcesses.count }
        guard kind == .openssh else {
            throw TestServerError.commandFailed("connectionProcessCount needs an OpenSSH or dropbear test server")
        }
        let pidText = try String(contentsOfFile: directory.path + "/sshd.pid", encoding: .utf8)
        guard let root = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestServerError.commandFailed("sshd.pid holds no PID: \(pidText)")
        }
        return LocalProcessTable.descendants(of: root).count
    }

    /// Polls ``connectionProcessCount()`` until it equals `expected` or `limit` passes; returns the last count.
    public func waitForConnectionProcesses(_ expected: Int, within limit: Duration = .seconds(10)) async throws -> Int {
        let deadline = ContinuousClock.now + limit
        var count = try connectionProcessCount()
        while count != expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            count = try connectionProcessCount()
        }
        return count
    }
}
