import Foundation
import RWSTestSupport
import SSHClient
import Synchronization

/// Test data and servers for the file tests, made once per test process and removed at exit.
///
/// The test servers run on this machine as this user, so tests create remote files directly.
enum FileFixtures {
    /// A fresh directory for one test (tests run in parallel).
    static func scratchDirectory(_ label: String = "t") throws -> String {
        let path = try root.get() + "/\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Creates a file holding `contents`; throws when it cannot.
    static func makeFile(_ path: String, _ contents: Data, permissions: Int? = nil) throws {
        // POSIX calls: ten times faster than FileManager for the 10,000-entry directory.
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        guard fd >= 0 else { throw TestServerError.commandFailed("cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw TestServerError.commandFailed("cannot write \(path)") }
        if let permissions, fchmod(fd, mode_t(permissions)) != 0 { throw TestServerError.commandFailed("cannot chmod \(path)") }
    }

    /// Every directory, file and server the fixtures made, removed or stopped at exit.
    private static let root: Result<String, any Error> = Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-files-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { FileFixtures.cleanUp() }
        return path
    }

    private static let servers = Mutex<[TestSSHServer]>([])

    private static func cleanUp() {
        for server in servers.withLock({ $0 }) { server.stop() }
        if case .success(let path) = root { _ = try? Shell.run("/bin/rm", ["-rf", path]) }
    }

    // MARK: The 10,000-entry directory

    /// One entry of ``bigDirectory``: what the listing must report.
    struct Expected: Equatable {
        var kind: RemoteFileKind
        var size: UInt64
    }

    /// 10,000 entries: every 200th a directory, every 200th (plus one) a symlink, the rest files
    /// of 0-96 bytes.
    static let bigDirectory: Result<(path: String, expected: [String: Expected]), any Error> = Result {
        let path = try root.get() + "/big"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var expected: [String: Expected] = [:]
        for index in 0..<10_000 {
            switch index % 200 {
            case 0:
                try FileManager.default.createDirectory(atPath: "\(path)/d\(index)", withIntermediateDirectories: false)
                expected["d\(index)"] = Expected(kind: .directory, size: 4096)
            case 1:
                let target = "f\(index + 1)"
                try FileManager.default.createSymbolicLink(atPath: "\(path)/l\(index)", withDestinationPath: target)
                expected["l\(index)"] = Expected(kind: .symlink, size: UInt64(target.utf8.count))
            default:
                let size = index % 97
                try makeFile("\(path)/f\(index)", Data(repeating: 120, count: size))
                expected["f\(index)"] = Expected(kind: .file, size: UInt64(size))
            }
        }
        return (path, expected)
    }

    // MARK: The 50 MB file

    /// 50,000,000 random bytes, and the same bytes read locally.
    static let bigFile: Result<(path: String, bytes: [UInt8]), any Error> = Result {
        let path = try root.get() + "/big-file.bin"
        try Shell.sh("head -c 50000000 /dev/urandom > '\(path)'")
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    // MARK: Servers

    private static let started = Mutex<[String: TestSSHServer]>([:])

    /// The server of `kind` made by `make` under `name`, started once per test process.
    private static func server(_ name: String, _ kind: ServerKind, _ make: () throws -> TestSSHServer) throws -> TestSSHServer {
        try started.withLock { started in
            if let server = started["\(name)-\(kind)"] { return server }
            let server = try make()
            started["\(name)-\(kind)"] = server
            servers.withLock { $0.append(server) }
            return server
        }
    }

    /// A server of `kind` that offers no sftp subsystem: sshd has none configured; dropbear
    /// accepts the request, but its sftp-server is an empty file, as on a box without one.
    static func serverWithoutSFTP(_ kind: ServerKind) throws -> TestSSHServer {
        try server("no-sftp", kind) { try TestSSHServer(kind, .init(sftp: false)) }
    }

    /// A server whose sessions (commands and the sftp-server) run without the capabilities that
    /// let root ignore file permissions, so "permission denied" can be shown even when the tests
    /// run as root. Uses util-linux `setpriv`.
    static func restrictedServer(_ kind: ServerKind) throws -> TestSSHServer {
        try server("restricted", kind) {
            try Prerequisites.require("/usr/bin/setpriv", package: "util-linux")
            let drop = "setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search --"
            let script = """
                case "$SSH_ORIGINAL_COMMAND" in
                  */sftp-server) exec \(drop) /usr/lib/openssh/sftp-server ;;
                  *) exec \(drop) /bin/sh -c "$SSH_ORIGINAL_COMMAND" ;;
                esac
                """
            switch kind {
            case .openssh:
                // An external sftp-server, so that ForceCommand sees the subsystem as a command too.
                return try TestSSHServer.forcing(
                    kind, script: script, .init(sftp: false, extraConfig: ["Subsystem sftp /usr/lib/openssh/sftp-server"]))
            case .dropbear:
                // Dropbear runs its compiled-in /usr/lib/sftp-server through the forced command as well.
                return try TestSSHServer.forcing(kind, script: script)
            case .asyncssh:
                throw TestServerError.startFailed(
                    "the asyncssh server serves SFTP in its own process: no forced command can drop the capabilities of it")
            }
        }
    }
}

/// The three ways a file call can reach the box, each checked to really be in use.
enum FileRoute: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The default server, automatic choice: SFTP.
    case sftp
    /// The default server, the shell fallback forced.
    case shell
    /// A server without the sftp subsystem, automatic choice: the shell fallback.
    case serverWithoutSFTP

    var description: String { rawValue }

    /// The server this route uses for `kind`.
    func server(_ kind: ServerKind) throws -> TestSSHServer {
        self == .serverWithoutSFTP ? try FileFixtures.serverWithoutSFTP(kind) : try SharedTestServer.get(kind)
    }

    /// Connects to the server of `kind` along this route, checks the transport in use, runs `body`, closes.
    func withConnection<T>(_ kind: ServerKind, _ body: (SSHConnection) async throws -> T) async throws -> T {
        try await server(kind).withConnection(fileTransport: self == .shell ? .shell : .automatic) { connection in
            let transport = try await connection.activeFileTransport()
            guard transport == (self == .sftp ? .sftp : .shell) else {
                throw TestServerError.commandFailed("route \(self) used \(transport)")
            }
            return try await body(connection)
        }
    }
}
