import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `SSHConnection.uploadDirectory`: a local tree sent to the box into a temporary that one
/// command finishes and renames; links stay links, modes and times are kept.
@Suite(.timeLimit(.minutes(1))) struct DirectoryUploadTests {
    static let hostile = DirectoryDownloadTests.hostile

    /// The download fixture's tree, made here (the box's files are this machine's, so the same
    /// script builds it), and an empty folder on the box.
    static func fixture() throws -> (local: String, remote: String) {
        let (tree, remote) = try DirectoryDownloadTests.fixture()
        return (tree, remote)
    }

    @Test(arguments: ServerKind.allCases, [FileRoute.sftp, .shell])
    func aTreeArrivesOnTheBoxWithItsLinksModesAndTimes(kind: ServerKind, route: FileRoute) async throws {
        let (local, remote) = try Self.fixture()
        let target = remote + "/copy"
        let done = try await route.withConnection(kind) { try await $0.uploadDirectory(local, to: target) }
        #expect(done.bytes == done.total && done.total == 6 + 18 + 8_000_000 + 8)
        let files = FileManager.default
        #expect(try files.contentsOfDirectory(atPath: remote) == ["copy"])
        #expect(
            try Set(files.contentsOfDirectory(atPath: target))
                == ["a.txt", "run.sh", "sub", "empty", Self.hostile, "link", "abs", "dirlink", "dangling"])
        for name in ["a.txt", "run.sh", "sub/deeper/b.bin", Self.hostile] {
            #expect(files.contents(atPath: target + "/" + name) == files.contents(atPath: local + "/" + name), "\(name)")
        }
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/abs") == "/etc/hostname")
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/dirlink") == "sub")
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/dangling") == "nowhere")
        func attribute<T>(_ name: String, _ key: FileAttributeKey) throws -> T? {
            try files.attributesOfItem(atPath: target + "/" + name)[key] as? T
        }
        #expect(try (attribute("run.sh", .posixPermissions) as NSNumber?)?.intValue == 0o755)
        #expect(try (attribute("empty", .posixPermissions) as NSNumber?)?.intValue == 0o700)
        #expect(try (attribute("sub/deeper", .modificationDate) as Date?)?.timeIntervalSince1970 == 1_600_000_000)
        #expect(try (attribute("a.txt", .modificationDate) as Date?)?.timeIntervalSince1970 == 1_600_000_000)
    }

    @Test(arguments: ServerKind.allCases)
    func aCutCopyLeavesNoTargetOnTheBoxAndResumes(kind: ServerKind) async throws {
        let (local, remote) = try Self.fixture()
        let target = remote + "/copy"
        let server = try FileRoute.sftp.server(kind)
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 2_000_000))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(server.configuration(through: proxy))
        await #expect(throws: (any Error).self) {
            try await connection.uploadDirectory(local, to: target) { progress in
                if progress.bytes > 100_000 { proxy.cutAll() }
            }
        }
        await connection.close()
        #expect(!FileManager.default.fileExists(atPath: target))
        let resumed = try await server.withConnection { try await $0.uploadDirectory(local, to: target, resume: true) }
        #expect(resumed.bytes == resumed.total && resumed.transferred < resumed.total, "\(resumed)")
        #expect(
            FileManager.default.contents(atPath: target + "/sub/deeper/b.bin")
                == FileManager.default.contents(atPath: local + "/sub/deeper/b.bin"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: remote) == ["copy"])
    }

    /// Every directory's mode and time and every link go to the finishing command: for a tree
    /// like a `node_modules` they outgrow one command line (Linux takes 128 KiB per argument).
    @Test func aTreeOfThousandsOfFoldersAndLinksIsFinishedWithTheirModesAndTimes() async throws {
        let (_, remote) = try Self.fixture()
        let local = try FileFixtures.scratchDirectory("many-folders")
        let long = String(repeating: "a-rather-long-package-name-", count: 2)
        for index in 0..<1_500 {
            let folder = local + "/\(long)\(index)/lib"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "../\(long)\(index)")
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o751, .modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
            ofItemAtPath: local + "/\(long)1499/lib")
        let target = remote + "/many"
        _ = try await FileRoute.sftp.withConnection(.default) { try await $0.uploadDirectory(local, to: target) }
        let last = try FileManager.default.attributesOfItem(atPath: target + "/\(long)1499/lib")
        #expect((last[.posixPermissions] as? NSNumber)?.intValue == 0o751)
        #expect((last[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: target + "/\(long)0/lib/link") == "../\(long)0")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).count == 1_500)
    }

    /// The folders are made by one command and finished by another: over SFTP, two round trips
    /// each (a look and a `mkdir`) and two commands each to finish took two minutes for these 200
    /// folders at 200 ms (4 s since).
    @Test func aTreeOfManyFoldersOverASlowLinkTakesAFewRoundTripsNotTwoPerFolder() async throws {
        let (_, remote) = try Self.fixture()
        let local = try FileFixtures.scratchDirectory("slow-folders")
        for index in 0..<100 { try FileManager.default.createDirectory(atPath: local + "/\(index)/lib", withIntermediateDirectories: true) }
        let server = try SharedTestServer.get(.default)
        let proxy = try FaultProxy(targetPort: server.port, link: .init(latency: .milliseconds(100)))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        do {
            let started = ContinuousClock.now
            try await connection.uploadDirectory(local, to: remote + "/slow")
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(20), "\(elapsed)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: remote + "/slow").count == 100)
            #expect(FileManager.default.fileExists(atPath: remote + "/slow/99/lib"))
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// A cancelled copy stops between files (not at the end of the tree) and leaves its
    /// temporary for `resume`, never the target.
    @Test func aCancelledTreeUploadOverASlowLinkStopsSoonAndLeavesNoTarget() async throws {
        let (_, remote) = try Self.fixture()
        let local = try FileFixtures.scratchDirectory("slow-files")
        for index in 0..<100 { try FileFixtures.makeFile(local + "/\(index).txt", Data("\(index)".utf8)) }
        let target = remote + "/cancelled"
        let (outcome, took) = try await DirectoryDownloadTests.cancelledMidway {
            try await $0.uploadDirectory(local, to: target, progress: $1)
        }
        #expect(throws: (any Error).self) { try outcome.get() }
        #expect(took < .seconds(5), "\(took)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(FileManager.default.fileExists(atPath: SSHConnection.partialTransferPath(for: target)))
    }

    @Test func anExistingTargetOrAFileIsRefusedAndNothingIsWritten() async throws {
        let (local, remote) = try Self.fixture()
        try FileManager.default.createDirectory(atPath: remote + "/there", withIntermediateDirectories: false)
        _ = try await FileRoute.sftp.withConnection(.default) { connection in
            await #expect(throws: TransferError.targetExists(path: remote + "/there")) {
                try await connection.uploadDirectory(local, to: remote + "/there")
            }
            await #expect(throws: TransferError.notADirectory(path: local + "/a.txt")) {
                try await connection.uploadDirectory(local + "/a.txt", to: remote + "/x")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: remote) == ["there"])
    }
}
