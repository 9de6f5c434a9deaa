import Foundation
import RWSTestSupport
import Testing

/// `rws put` and `rws get` onto a full disk (a 1 MB tmpfs, on the box and here): one clear line,
/// exit 1, and nothing left behind, neither the target nor the temporary.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FullDiskTransferTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    /// OpenSSH only: the dropbear test server runs in a mount namespace of its own, where the
    /// small disk is not mounted. Over SFTP (which says only "failure") and over the shell.
    @Test(arguments: [true, false])
    func putOntoAFullDiskOfTheBoxSaysSoAndLeavesNothing(sftp: Bool) async throws {
        let server = try TestSSHServer(.openssh, .init(sftp: sftp))
        defer { server.stop() }
        let disk = try SmallDisk()
        let local = disk.path + "-source.bin"
        try Data(repeating: 7, count: 4_000_000).write(to: URL(fileURLWithPath: local))
        defer { try? FileManager.default.removeItem(atPath: local) }
        let put = try await RWSBinary.run(["put"] + server.rwsFlags + [local, disk.path + "/big.bin"], home: home)
        #expect(put.status == 1, "\(put)")
        #expect(
            put.stderr == "rws: no space left on the box for \(disk.path)/big.bin: free some space on the box (df -h shows where) "
                + "and copy again; nothing was kept\n", "\(put.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [])
    }

    @Test(arguments: ServerKind.allCases)
    func getOntoAFullDiskSaysSoAndLeavesNothing(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let disk = try SmallDisk()
        let remote = server.remoteHome + "/full-\(UUID().uuidString.prefix(8)).bin"
        try Data(repeating: 9, count: 4_000_000).write(to: URL(fileURLWithPath: remote))
        defer { try? FileManager.default.removeItem(atPath: remote) }
        let get = try await RWSBinary.run(["get"] + server.rwsFlags + [remote, disk.path + "/big.bin"], home: home)
        #expect(get.status == 1, "\(get)")
        #expect(get.stderr.contains("rws: no space left on this machine for \(disk.path)/big.bin"), "\(get.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [])
    }
}
