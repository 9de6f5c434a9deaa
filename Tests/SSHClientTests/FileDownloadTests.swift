import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// `SSHConnection.download`: a remote file streamed into a temporary beside the target, given
/// the remote mode and time, renamed over the target; `resume` continues a checked temporary.
@Suite(.timeLimit(.minutes(1))) struct FileDownloadTests {
    static let name = "-n 'q' \"d\" $(x) é.bin"

    /// A remote file of 3 MB in a fresh folder, and an empty local folder.
    static func fixture() throws -> (remote: String, contents: Data, local: String) {
        let folder = try FileFixtures.scratchDirectory("get")
        let contents = Data(TestBytes.make(3_000_000, seed: 2))
        let remote = folder + "/" + name
        try FileFixtures.makeFile(remote, contents, permissions: 0o640)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: remote)
        let local = try FileFixtures.scratchDirectory("got")
        return (remote, contents, local)
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func aFileArrivesWholeWithItsModeAndTimeAndNoTemporaryLeft(kind: ServerKind, route: FileRoute) async throws {
        let (remote, contents, local) = try Self.fixture()
        let target = local + "/copy of " + Self.name
        let moved = try await route.withConnection(kind) { try await $0.download(remote, to: target) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
        #expect(moved == TransferProgress(bytes: 3_000_000, total: 3_000_000, transferred: 3_000_000))
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: local) == ["copy of " + Self.name])
    }

    @Test(arguments: ServerKind.allCases)
    func resumeKeepsAMatchingTemporaryAndStartsOverFromABadOne(kind: ServerKind) async throws {
        let (remote, contents, local) = try Self.fixture()
        let target = local + "/out.bin"
        let partial = SSHConnection.partialTransferPath(for: target)
        try contents.prefix(1_000_000).write(to: URL(fileURLWithPath: partial))
        let resumed = try await FileRoute.sftp.withConnection(kind) { try await $0.download(remote, to: target, resume: true) }
        #expect(resumed.transferred == 2_000_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
        #expect(!FileManager.default.fileExists(atPath: partial))

        var damaged = contents.prefix(1_000_000)
        damaged[damaged.endIndex - 10] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: partial))
        let restarted = try await FileRoute.sftp.withConnection(kind) { try await $0.download(remote, to: target, resume: true) }
        #expect(restarted.transferred == 3_000_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
    }

    @Test(arguments: ServerKind.allCases)
    func aFolderOnTheBoxOrAMissingFolderHereIsSaidAndNothingIsLeft(kind: ServerKind) async throws {
        let (remote, _, local) = try Self.fixture()
        let folder = URL(fileURLWithPath: remote).deletingLastPathComponent().path
        await #expect(throws: TransferError.isADirectory(path: folder)) {
            try await FileRoute.sftp.withConnection(kind) { try await $0.download(folder, to: local + "/x") }
        }
        await #expect {
            try await FileRoute.sftp.withConnection(kind) { try await $0.download(remote, to: local + "/missing/x") }
        } throws: { error in
            (error as? TransferError).map { "\($0)".contains("the folder \(local)/missing does not exist") } ?? false
        }
        await #expect(throws: RemoteFileError.noSuchFile(path: remote + ".nope")) {
            try await FileRoute.sftp.withConnection(kind) { try await $0.download(remote + ".nope", to: local + "/y") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: local).isEmpty)
    }

    /// A link cut in the middle of a copy leaves the temporary, not the target; `resume` over a
    /// new connection copies only the rest.
    @Test(arguments: ServerKind.allCases)
    func aCopyCutByTheLinkResumesFromWhatArrived(kind: ServerKind) async throws {
        let (remote, contents, local) = try Self.fixture()
        let target = local + "/out.bin"
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 1_000_000))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        let arrived = Arrived()
        let cut = Task {
            while arrived.bytes.withLock({ $0 }) < 500_000 { try await Task.sleep(for: .milliseconds(20)) }
            proxy.cutAll()
        }
        await #expect(throws: (any Error).self) {
            try await connection.download(remote, to: target) { progress in arrived.bytes.withLock { $0 = progress.bytes } }
        }
        _ = try? await cut.value
        await connection.close()
        #expect(!FileManager.default.fileExists(atPath: target))
        let partial = SSHConnection.partialTransferPath(for: target)
        let kept = try #require((try FileManager.default.attributesOfItem(atPath: partial)[.size] as? NSNumber)?.uint64Value)
        #expect(kept >= 500_000 && kept < 3_000_000)

        let resumed = try await FileRoute.sftp.withConnection(kind) { try await $0.download(remote, to: target, resume: true) }
        #expect(resumed.transferred == 3_000_000 - kept)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == contents)
    }
}

/// How far a download came, shared with the task that cuts the link.
private final class Arrived: Sendable {
    let bytes = Mutex<UInt64>(0)
}
