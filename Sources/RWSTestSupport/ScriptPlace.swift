import Foundation
import SSHClient

/// Where a behaviour test runs RemoteWorkspace's scripts: this machine's `/bin/sh` inside the
/// test process (``local``: no server, no handshake), or a real SSH server of one kind (the wire).
///
/// Either way the scripts work on this machine's files, so a test sets up and checks them the
/// same way; only the host that runs the scripts differs.
package enum ScriptPlace: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `LocalShell`, with `HOME` pointed at a folder of the test process's own.
    case local
    /// The shared OpenSSH server.
    case openssh
    /// The shared dropbear server.
    case dropbear
    /// The shared asyncssh server: only where `RWS_TEST_SERVER=asyncssh` makes it the default.
    case asyncssh

    /// This machine, OpenSSH and dropbear: written out so that ``asyncssh`` is not added to
    /// every suite that iterates the places (as ``ServerKind/allCases`` leaves it out).
    package static let allCases: [ScriptPlace] = [.local, .openssh, .dropbear]

    /// The place of a server kind.
    package init(_ kind: ServerKind) {
        switch kind {
        case .openssh: self = .openssh
        case .dropbear: self = .dropbear
        case .asyncssh: self = .asyncssh
        }
    }

    /// This machine, and the server tests use when they do not choose one (`RWS_TEST_SERVER`).
    package static var localAndDefault: [ScriptPlace] { [.local, ScriptPlace(.default)] }

    /// The server behind this place; nil for ``local``.
    package var serverKind: ServerKind? {
        switch self {
        case .local: nil
        case .openssh: .openssh
        case .dropbear: .dropbear
        case .asyncssh: .asyncssh
        }
    }

    /// The shared server of this place; only for a server place (a test of the wire).
    package func server() throws -> TestSSHServer {
        guard let serverKind else { preconditionFailure("the local place has no server: this test needs a server place") }
        return try SharedTestServer.get(serverKind)
    }

    /// The home folder the scripts see: the server's sandbox home, or one made for this process.
    package func home() throws -> String {
        guard serverKind != nil else { return try Self.localHome.get() }
        return try server().remoteHome
    }

    /// Runs `body` with a host here: a `LocalShell` whose `HOME` is ``home()``, or a fresh
    /// connection to the shared server, closed whether `body` returned or threw.
    package func withHost<T>(_ body: (any ScriptHost) async throws -> T) async throws -> T {
        guard serverKind != nil else { return try await body(LocalShell(environment: ["HOME": try home()])) }
        return try await server().withConnection { try await body($0) }
    }

    package var description: String { rawValue }

    /// One home per test process, removed when it exits.
    private static let localHome: Result<String, any Error> = Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-local-home-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { ScriptPlace.removeLocalHome() }
        return path
    }

    private static func removeLocalHome() {
        if case .success(let path) = localHome { try? FileManager.default.removeItem(atPath: path) }
    }
}
