import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `SSHConnection.upload`: a local file sent in 4 MiB chunks to a temporary beside the target on
/// the box, given the local mode and time, renamed over the target; `resume` continues a
/// checked temporary.
@Suite(.timeLimit(.minutes(1))) struct FileUploadTests {
    /// A 9 MB local file (three chunks) and an empty folder on the box.
    static func fixture() throws -> (local: String, contents: Data, remoteFolder: String) {
        let here = try FileFixtures.scratchDirectory("put-src")
        let contents = Data(TestBytes.make(9_000_000, seed: 1))
        let local = here + "/" + FileDownloadTests.name
        try FileFixtures.makeFile(local, contents, permissions: 0o640)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: local)
        return (local, contents, try FileFixtures.scratchDirectory("put-dst"))
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func aFileArrivesOnTheBoxWholeWithItsModeAndTimeAndNoTemporaryLeft(kind: ServerKind, route: FileRoute) async throws {
        let (local, contents, folder) = try Self.fixture()
        let target = folder + "/" + FileDownloadTests.name
        try FileFixtures.makeFile(target, Data("old".utf8))
        let sent = try await route.withConnection(kind) { try await $0.upload(local, to: target) }
        #expect(sent == TransferProgress(bytes: 9_000_000, total: 9_000_000, transferred: 9_000_000))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [FileDownloadTests.name])
    }

    @Test(arguments: ServerKind.allCases)
    func resumeKeepsAMatchingTemporaryOnTheBoxAndStartsOverFromABadOne(kind: ServerKind) async throws {
        let (local, contents, folder) = try Self.fixture()
        let target = folder + "/out.bin"
        let partial = SSHConnection.partialTransferPath(for: target)
        try contents.prefix(5_000_000).write(to: URL(fileURLWithPath: partial))
        let resumed = try await FileRoute.sftp.withConnection(kind) { try await $0.upload(local, to: target, resume: true) }
        #expect(resumed.transferred == 4_000_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
        #expect(!FileManager.default.fileExists(atPath: partial))

        var damaged = contents.prefix(5_000_000)
        damaged[damaged.endIndex - 1] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: partial))
        let restarted = try await FileRoute.sftp.withConnection(kind) { try await $0.upload(local, to: target, resume: true) }
        #expect(restarted.transferred == 9_000_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
    }

    @Test(arguments: ServerKind.allCases)
    func aMissingFolderOnTheBoxOrAFolderHereIsSaid(kind: ServerKind) async throws {
        let (local, _, folder) = try Self.fixture()
        await #expect(throws: RemoteFileError.noSuchFile(path: folder + "/missing")) {
            try await FileRoute.sftp.withConnection(kind) { try await $0.upload(local, to: folder + "/missing/x") }
        }
        let here = URL(fileURLWithPath: local).deletingLastPathComponent().path
        await #expect(throws: TransferError.notARegularFile(path: here)) {
            try await FileRoute.sftp.withConnection(kind) { try await $0.upload(here, to: folder + "/y") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
