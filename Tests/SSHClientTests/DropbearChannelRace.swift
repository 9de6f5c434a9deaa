import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Dropbear 2022.82 to 2024.85 (Debian bookworm's 2022.83 among them) ends the whole connection
/// when a command exits while another channel of the same connection is open but has not yet
/// received its command: the server closes that fresh channel, then aborts on the command that
/// arrives for it (dropbear issue 321, fixed in 2024.86; see docs/servers.md).
///
/// Tests that run commands at once go through ``outcome(_:)``: on OpenSSH it only returns what
/// the body returned or throws what it threw. On dropbear it accepts exactly one other outcome,
/// the documented abort: the body threw (the connection died under it: `connectionLost`, or a
/// shell whose output ended) and the server's log, since this watch began, shows the failed
/// assertion. Any other throw, and every expectation recorded before the abort, fails the test;
/// the abort itself is recorded as a known issue, so that every run shows how often it came.
/// `DropbearIssue321Tests` reproduces the defect with plain libssh2 and fails once it is gone.
struct DropbearChannelRace {
    /// What dropbear logs when it aborts.
    static let logLine = "Failed assertion (common-channel.c:705): `!channel->sent_close'"

    let server: TestSSHServer
    private let logOffset: Int

    /// Starts watching `server`, which should serve this test alone so that its log speaks for it.
    init(_ server: TestSSHServer) {
        self.server = server
        logOffset = Self.logSize(server.logPath)
    }

    /// Whether the server logged the abort since the watch began.
    var serverAborted: Bool {
        guard let handle = FileHandle(forReadingAtPath: server.logPath) else { return false }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(logOffset))
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return text.contains(Self.logLine)
    }

    /// Runs `body`; returns its value, or nil when dropbear aborted the connection as documented.
    func outcome<T>(_ body: () async throws -> T) async throws -> T? {
        do {
            return try await body()
        } catch {
            guard server.kind == .dropbear, serverAborted else { throw error }
            // Dropbear's own defect, reproduced without rws by DropbearIssue321Tests: shown, not hidden.
            withKnownIssue("dropbear issue 321 ended the connection (\(Self.logLine))", isIntermittent: true) {
                Issue.record("the test's commands failed after dropbear's abort: \(error)")
            }
            return nil
        }
    }

    private static func logSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
