import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileErrorTests {
    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func missingPathsAndNonDirectoriesGiveDistinctErrorsAndTheConnectionKeepsWorking(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("errors")
        try FileFixtures.makeFile(directory + "/file", Data("x".utf8))
        try await route.withConnection(kind) { connection in
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/missing")) {
                try await connection.listDirectory(directory + "/missing")
            }
            await #expect(throws: RemoteFileError.notADirectory(path: directory + "/file")) {
                try await connection.listDirectory(directory + "/file")
            }
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/file/below")) {
                try await connection.readFile(directory + "/file/below")
            }
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/missing")) {
                try await connection.readFile(directory + "/missing")
            }
            await #expect(throws: RemoteFileError.isADirectory(path: directory)) { try await connection.readFile(directory) }
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/missing")) {
                try await connection.stat(directory + "/missing")
            }
            let names = try await connection.listDirectory(directory).map(\.name)
            #expect(names == ["file"])
            let echo = try await connection.run("echo still here")
            #expect(echo.stdoutText == "still here\n")
        }
    }

    @Test(arguments: ServerKind.allCases, [RemoteFileTransport.sftp, .shell])
    func permissionDeniedIsItsOwnError(kind: ServerKind, transport: RemoteFileTransport) async throws {
        let server = try FileFixtures.restrictedServer(kind)
        let directory = try FileFixtures.scratchDirectory("denied")
        try FileManager.default.createDirectory(
            atPath: directory + "/closed", withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o000])
        try FileFixtures.makeFile(directory + "/secret", Data("x".utf8), permissions: 0o000)
        try await server.withConnection(fileTransport: transport) { connection in
            let active = try await connection.activeFileTransport()
            #expect(active == transport)
            await #expect(throws: RemoteFileError.permissionDenied(path: directory + "/closed")) {
                try await connection.listDirectory(directory + "/closed")
            }
            await #expect(throws: RemoteFileError.permissionDenied(path: directory + "/secret")) {
                try await connection.readFile(directory + "/secret")
            }
            await #expect(throws: RemoteFileError.permissionDenied(path: directory + "/closed/new")) {
                try await connection.writeFile(directory + "/closed/new", contents: [1])
            }
            let entries = try await connection.listDirectory(directory)
            #expect(entries.count == 2)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func forcingSFTPOnAServerWithoutItSaysSo(kind: ServerKind) async throws {
        let server = try FileFixtures.serverWithoutSFTP(kind)
        try await server.withConnection(fileTransport: .sftp) { connection in
            await #expect(throws: RemoteFileError.self) { try await connection.listDirectory("/") }
            do {
                _ = try await connection.listDirectory("/")
            } catch let error as RemoteFileError {
                guard case .sftpUnavailable = error else { throw error }
                #expect(error.description.contains("offers no SFTP"))
            }
            let echo = try await connection.run("echo ok")
            #expect(echo.stdoutText == "ok\n")
        }
    }

    /// A server may accept the sftp subsystem and then fail to run its sftp-server, so that the
    /// channel just ends: dropbear on a box without one, sshd whose `Subsystem` names a missing
    /// program. libssh2 1.10 waits for the SFTP version forever there; the file API gives up after
    /// `SFTPChannel.versionTimeout` (2 s) and uses the shell, and the connection never hangs.
    @Test(arguments: ServerKind.allCases)
    func anSFTPSubsystemWhoseServerCannotRunFallsBackToTheShellInsteadOfHanging(kind: ServerKind) async throws {
        // Dropbear without an sftp-server; sshd runs a Subsystem program without checking that it exists.
        let server =
            try kind == .dropbear
            ? TestSSHServer(kind, .init(sftp: false))
            : TestSSHServer(kind, .init(sftp: false, extraConfig: ["Subsystem sftp /nonexistent/rws-sftp-server"]))
        defer { server.stop() }
        let directory = try FileFixtures.scratchDirectory("unrunnable")
        try FileFixtures.makeFile(directory + "/file", Data("x".utf8))
        let started = ContinuousClock.now
        let (names, transport) = try await server.withConnection(fileTransport: .automatic) { connection in
            (try await connection.listDirectory(directory).map(\.name), try await connection.activeFileTransport())
        }
        #expect(names == ["file"])
        #expect(transport == .shell)
        #expect(ContinuousClock.now - started < .seconds(15))
        try await server.withConnection(fileTransport: .sftp) { connection in
            do {
                _ = try await connection.listDirectory(directory)
                Issue.record("SFTP was used on a server whose sftp-server cannot run")
            } catch let error as RemoteFileError {
                guard case .sftpUnavailable(let reason) = error else { throw error }
                #expect(reason.contains("no sftp-server answered"))
            }
            #expect(try await connection.run("echo ok").stdoutText == "ok\n")
        }
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func filesVanishingDuringAListingAreLeftOutWithoutAnError(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("vanish")
        for index in 0..<2000 { try FileFixtures.makeFile("\(directory)/f\(index)", Data(count: index % 50)) }
        let churn = try Churn(directory: directory)
        churn.start()
        defer { churn.stop() }
        try await route.withConnection(kind) { connection in
            // A fast listing can finish before the churn thread gets the CPU: every listing is
            // checked, and listing goes on until three of them ran while files were being
            // removed and re-created (a bound, so that a churn that never runs fails, not hangs).
            var listingsDuringChurn = 0
            for _ in 0..<50 where listingsDuringChurn < 3 {
                let before = churn.count
                let entries = try await connection.listDirectory(directory)
                if churn.count > before { listingsDuringChurn += 1 }
                #expect(entries.count > 1500 && entries.count <= 2000)
                for entry in entries {
                    let index = Int(entry.name.dropFirst()) ?? -1
                    #expect(entry.name.hasPrefix("f") && entry.size == UInt64(index % 50) && entry.kind == .file, "\(entry.name)")
                }
            }
            #expect(listingsDuringChurn == 3, "files were removed and re-created while three listings ran")
        }
    }
}

/// Removes and re-creates files of a directory on a background thread until stopped.
final class Churn: @unchecked Sendable {
    private let directory: String
    private let state = NSLock()
    private var running = true
    private var changes = 0
    private var thread: Thread?

    private var staging: String { directory + ".staging" }

    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory + ".staging", withIntermediateDirectories: false)
    }

    var count: Int { state.withLock { changes } }

    func start() {
        let thread = Thread { [self] in
            var index = 0
            while state.withLock({ running }) {
                // Each file is whole whenever it exists: written aside, then renamed in.
                let name = "f\(index % 2000)"
                unlink(directory + "/" + name)
                _ = FileManager.default.createFile(atPath: staging + "/" + name, contents: Data(count: (index % 2000) % 50))
                rename(staging + "/" + name, directory + "/" + name)
                index += 7
                state.withLock { changes += 1 }
                usleep(200)
            }
        }
        self.thread = thread
        thread.start()
    }

    func stop() { state.withLock { running = false } }
}
