import Foundation
import Logging
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileListingTests {
    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func listingTenThousandEntriesReturnsEveryOneWithItsKindAndSize(kind: ServerKind, route: FileRoute) async throws {
        let (path, expected) = try FileFixtures.bigDirectory.get()
        let entries = try await route.withConnection(kind) { try await $0.listDirectory(path) }
        #expect(entries.count == 10_000)
        var mismatches: [String] = []
        for entry in entries {
            let want = expected[entry.name]
            let sizeMatters = entry.kind != .directory
            if want?.kind != entry.kind || (sizeMatters && want?.size != entry.size) {
                mismatches.append("\(entry.name): \(entry.kind) \(entry.size)")
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
        #expect(Set(entries.map(\.name)) == Set(expected.keys))
        #expect(entries.first?.path == path + "/" + entries[0].name)
    }

    /// READDIR requests go one round trip at a time: over a slow link a big directory is listed
    /// by the exec listing once the SFTP one runs past its budget, with the same entries, and
    /// the connection's SFTP listings stay right afterwards.
    @Test(arguments: ServerKind.allCases)
    func aBigDirectoryOverASlowLinkIsListedByExecWithTheSameEntries(kind: ServerKind) async throws {
        let (path, _) = try FileFixtures.bigDirectory.get()
        let small = try FileFixtures.scratchDirectory("after-slow")
        for name in ["a", "b", "c"] { try FileFixtures.makeFile(small + "/" + name, Data(name.utf8)) }
        let server = try SharedTestServer.get(kind)
        let direct = try await server.withConnection { try await $0.listDirectory(path) }
        let smallDirect = try await server.withConnection { try await $0.listDirectory(small) }

        // Slow only after the handshake: SFTP is chosen, and runs past its budget.
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        proxy.setLink(.init(latency: .milliseconds(100)))
        do {
            let started = ContinuousClock.now
            let slow = try await connection.listDirectory(path)
            let elapsed = ContinuousClock.now - started
            #expect(slow == direct)
            // One READDIR per ~100 names at 200 ms each would take 20 s.
            #expect(elapsed < .seconds(10), "\(elapsed)")
            #expect(try await connection.activeFileTransport() == .sftp)
            #expect(try await connection.listDirectory(small) == smallDirect)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// `fileTransport = .sftp` is SFTP only: a listing that runs past the budget on a slow link
    /// goes on over SFTP instead of turning to the exec listing.
    @Test(arguments: ServerKind.allCases)
    func withSFTPChosenABigDirectoryOverASlowLinkIsStillListedOverSFTP(kind: ServerKind) async throws {
        let (path, _) = try FileFixtures.bigDirectory.get()
        let server = try SharedTestServer.get(kind)
        let direct = try await server.withConnection { try await $0.listDirectory(path) }
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let log = LogLines()
        var configuration = try server.configuration(through: proxy)
        configuration.fileTransport = .sftp
        configuration.logger = Logger(label: "test") { _ in log }
        try await TestSSHServer.closing(try await SSHConnection.connect(configuration)) { (connection) async throws -> Void in
            proxy.setLink(.init(latency: .milliseconds(20)))
            let started = ContinuousClock.now
            #expect(try await connection.listDirectory(path) == direct)
            #expect(ContinuousClock.now - started > .milliseconds(750), "the listing never ran past its budget (750 ms)")
            #expect(!log.text.contains("by exec"), "\(log.text)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func overALinkSlowFromTheHandshakeTheFirstListingIsOneCommandAndOpensNoSFTPSession(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let directory = server.remoteHome + "/few"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["a", "b b", "c\nd"] { try FileFixtures.makeFile(directory + "/" + name, Data(name.utf8)) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "a")
        let overSFTP = try await server.withConnection(adjusting: { $0.fileTransport = .sftp }) { try await $0.listDirectory(directory) }
        let sftpSessions = { Self.sftpSessions(on: server) }
        // Dropbear's count is of live sftp-servers: the one above ends a moment after its connection.
        if kind == .dropbear { #expect(try await Eventually.holds { sftpSessions() == 0 }) }
        let before = sftpSessions()

        let proxy = try FaultProxy(targetPort: server.port, link: .init(latency: .milliseconds(100)))
        defer { proxy.stop() }
        let log = LogLines()
        var configuration = try server.configuration(through: proxy)
        configuration.logger = Logger(label: "test") { _ in log }
        try await TestSSHServer.closing(try await SSHConnection.connect(configuration)) { (connection) async throws -> Void in
            #expect(try await connection.listDirectory(directory) == overSFTP)
            #expect(log.text.contains("by exec, not SFTP"), "\(log.text)")
            #expect(sftpSessions() == before)
            // The count above sees an SFTP session where there is one.
            #expect(try await connection.activeFileTransport() == .sftp)
            // sshd may log the session's start a moment after it answers.
            #expect(try await Eventually.holds { sftpSessions() == before + 1 }, "\(sftpSessions()) SFTP sessions")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aSlowHandshakeOnAFastLinkKeepsTheSFTPListing(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        // Slow while connecting only, as a busy box makes a handshake: the probe then finds the link fast.
        let proxy = try FaultProxy(targetPort: server.port, link: .init(latency: .milliseconds(100)))
        defer { proxy.stop() }
        let log = LogLines()
        var configuration = try server.configuration(through: proxy)
        configuration.logger = Logger(label: "test") { _ in log }
        try FileFixtures.makeFile(server.remoteHome + "/listed", Data())
        try await TestSSHServer.closing(try await SSHConnection.connect(configuration)) { (connection) async throws -> Void in
            proxy.setLink(.init())
            #expect(try await connection.listDirectory(server.remoteHome).contains { $0.name == "listed" })
            #expect(log.text.contains("SFTP: a round trip took"), "\(log.text)")
            // sshd may log the session's start a moment after it answers.
            #expect(try await Eventually.holds { Self.sftpSessions(on: server) == 1 }, "\(Self.sftpSessions(on: server)) SFTP sessions")
        }
    }

    /// The SFTP sessions of `server`: sshd (internal-sftp) logs each start; dropbear runs an
    /// sftp-server process for each, which lives as long as its session.
    private static func sftpSessions(on server: TestSSHServer) -> Int {
        guard server.kind == .dropbear else {
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            return log.components(separatedBy: "Starting session: subsystem 'sftp'").count - 1
        }
        return server.connectionProcesses.flatMap(LocalProcessTable.descendants(of:)).filter { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("sftp-server")
        }.count
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func entriesCarryPermissionsOwnerModificationTimeAndLinkTargets(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("attrs")
        try FileFixtures.makeFile(directory + "/script", Data("#!/bin/sh\n".utf8), permissions: 0o750)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
            ofItemAtPath: directory + "/script")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "../some where/else\nnewline")
        let entries = try await route.withConnection(kind) { try await $0.listDirectory(directory, includeSymlinkTargets: true) }
        let script = try #require(entries.first { $0.name == "script" })
        #expect(script.attributes.permissions == 0o750)
        #expect(script.attributes.userID == getuid())
        #expect(script.attributes.groupID == getgid())
        #expect(script.attributes.modificationTime == Date(timeIntervalSince1970: 1_600_000_000))
        let link = try #require(entries.first { $0.name == "link" })
        #expect(link.kind == .symlink)
        #expect(link.symlinkTarget == "../some where/else\nnewline")
        #expect(script.symlinkTarget == nil)
    }

    static let awkwardNames = [
        "with space", "it's", "\"double\"", "new\nline", "\nleading newline", "trailing newline\n", "-leading-dash", "--",
        "ünïcødé ☃", String(repeating: "a", count: 255), String(repeating: "é", count: 127) + "x", "tab\there", "back\\slash",
        "*", "?", "$HOME", "$(touch canary)", ".hidden", "..dots", "...", "semi;colon", "carriage\rreturn", " ", "~",
        "f 1\n81a4 0 0 0 0 f 2",
    ]

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func awkwardNamesComeBackExactly(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("names")
        for name in Self.awkwardNames {
            try FileFixtures.makeFile(directory + "/" + name, Data(name.utf8))
        }
        let entries = try await route.withConnection(kind) { try await $0.listDirectory(directory) }
        #expect(entries.map(\.name).sorted() == Self.awkwardNames.sorted())
        for entry in entries {
            #expect(entry.size == UInt64(entry.name.utf8.count), "\(entry.name.debugDescription)")
            #expect(entry.kind == .file)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/canary"))
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func statDescribesOnePathAndFollowsLinksOnlyWhenAsked(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("stat")
        try FileFixtures.makeFile(directory + "/file", Data(count: 1234))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "file")
        try await route.withConnection(kind) { connection in
            let file = try await connection.stat(directory + "/file")
            #expect(file.kind == .file && file.size == 1234 && file.name == "file")
            let link = try await connection.stat(directory + "/link")
            #expect(link.kind == .symlink && link.symlinkTarget == "file")
            let followed = try await connection.stat(directory + "/link", followSymlinks: true)
            #expect(followed.kind == .file && followed.size == 1234)
            #expect(try await connection.stat(directory).kind == .directory)
        }
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func tildeAndRelativePathsMeanTheRemoteHome(kind: ServerKind, route: FileRoute) async throws {
        let server = try route.server(kind)
        let name = "home-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: server.remoteHome + "/" + name + "/inner", withIntermediateDirectories: true)
        try await route.withConnection(kind) { connection in
            #expect(try await connection.listDirectory("~/" + name).map(\.name) == ["inner"])
            #expect(try await connection.listDirectory(name).map(\.name) == ["inner"])
            let home = try await connection.listDirectory("~")
            #expect(home.contains { $0.name == name })
            #expect(try await connection.listDirectory(name).first?.path == name + "/inner")
        }
    }
}
