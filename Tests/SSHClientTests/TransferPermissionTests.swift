import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Copies the login may not make: `permissionDenied` naming the path, and nothing left behind,
/// on a server whose sessions run without the capabilities that let root ignore modes.
@Suite(.timeLimit(.minutes(1))) struct TransferPermissionTests {
    @Test(arguments: ServerKind.allCases, [RemoteFileTransport.sftp, .shell])
    func putIntoAFolderTheLoginCannotWriteSaysSoAndLeavesNothing(kind: ServerKind, transport: RemoteFileTransport) async throws {
        let server = try FileFixtures.restrictedServer(kind)
        let directory = try FileFixtures.scratchDirectory("put-denied")
        try FileManager.default.createDirectory(
            atPath: directory + "/readonly", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
        let local = try FileFixtures.scratchDirectory("put-denied-here")
        try FileFixtures.makeFile(local + "/report.pdf", Data(repeating: 7, count: 10_000))
        try FileManager.default.createDirectory(atPath: local + "/tree/sub", withIntermediateDirectories: true)
        try FileFixtures.makeFile(local + "/tree/sub/a.txt", Data("a".utf8))
        try await server.withConnection(fileTransport: transport) { connection in
            await #expect(throws: RemoteFileError.permissionDenied(path: directory + "/readonly")) {
                try await connection.upload(local + "/report.pdf", to: directory + "/readonly/report.pdf")
            }
            await #expect {
                try await connection.uploadDirectory(local + "/tree", to: directory + "/readonly/tree")
            } throws: { error in
                Self.isDenied(error, below: directory + "/readonly")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/readonly").isEmpty)
    }

    @Test(arguments: ServerKind.allCases, [RemoteFileTransport.sftp, .shell])
    func getOfAFileTheLoginCannotReadSaysSoAndLeavesNoPartial(kind: ServerKind, transport: RemoteFileTransport) async throws {
        let server = try FileFixtures.restrictedServer(kind)
        let directory = try FileFixtures.scratchDirectory("get-denied")
        try FileFixtures.makeFile(directory + "/secret", Data("x".utf8), permissions: 0o000)
        let local = try FileFixtures.scratchDirectory("get-denied-here")
        _ = try await server.withConnection(fileTransport: transport) { connection in
            await #expect(throws: RemoteFileError.permissionDenied(path: directory + "/secret")) {
                try await connection.download(directory + "/secret", to: local + "/secret")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: local).isEmpty)
    }

    /// `permissionDenied` for the folder or for a path inside it (the temporary rws writes first).
    private static func isDenied(_ error: any Error, below folder: String) -> Bool {
        guard case RemoteFileError.permissionDenied(let path) = error else { return false }
        return path == folder || path.hasPrefix(folder + "/")
    }
}
