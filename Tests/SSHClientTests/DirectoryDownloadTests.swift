import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// `SSHConnection.downloadDirectory`: a tree from the box, built in a temporary and renamed;
/// links stay links, modes and times are kept, an interrupted copy resumes or starts clean.
@Suite(.timeLimit(.minutes(1))) struct DirectoryDownloadTests {
    static let hostile = "-n 'q' $(x) é\nline"

    /// On the box: files of several modes, a nested 8 MB file, an empty folder, links (relative,
    /// absolute, to a folder, dangling), a hostile name and a FIFO.
    static func fixture() throws -> (remote: String, local: String) {
        let remote = try FileFixtures.scratchDirectory("tree")
        let script = #"""
            set -e
            cd "$1"
            printf 'alpha\n' > a.txt && chmod 644 a.txt
            printf '#!/bin/sh\necho hi\n' > run.sh && chmod 755 run.sh
            mkdir -p sub/deeper empty && chmod 700 empty
            head -c 8000000 /dev/urandom > sub/deeper/b.bin
            printf 'hostile\n' > "./$2"
            ln -s a.txt link && ln -s /etc/hostname abs && ln -s sub dirlink && ln -s nowhere dangling
            mkfifo fifo
            touch -h -d @1600000000 -- a.txt run.sh sub/deeper/b.bin "$2" link empty sub/deeper sub
            """#
        try Shell.run("/bin/sh", ["-c", script, "sh", remote, hostile])
        return (remote, try FileFixtures.scratchDirectory("gottree"))
    }

    @Test(arguments: ServerKind.allCases, [FileRoute.sftp, .shell])
    func aTreeArrivesWithItsLinksModesAndTimesAndNothingElse(kind: ServerKind, route: FileRoute) async throws {
        let (remote, local) = try Self.fixture()
        let target = local + "/copy"
        let done = try await route.withConnection(kind) { try await $0.downloadDirectory(remote, to: target) }
        #expect(done.bytes == done.total && done.total == 6 + 18 + 8_000_000 + 8)
        let files = FileManager.default
        #expect(try files.contentsOfDirectory(atPath: local) == ["copy"])
        #expect(
            try Set(files.contentsOfDirectory(atPath: target)) == [
                "a.txt", "run.sh", "sub", "empty", Self.hostile, "link", "abs", "dirlink", "dangling",
            ])
        for name in ["a.txt", "run.sh", "sub/deeper/b.bin", Self.hostile] {
            #expect(files.contents(atPath: target + "/" + name) == files.contents(atPath: remote + "/" + name), "\(name)")
        }
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/link") == "a.txt")
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/abs") == "/etc/hostname")
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/dirlink") == "sub")
        #expect(try files.destinationOfSymbolicLink(atPath: target + "/dangling") == "nowhere")
        func mode(_ name: String) throws -> Int {
            (try files.attributesOfItem(atPath: target + "/" + name)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        func time(_ name: String) throws -> Double {
            (try files.attributesOfItem(atPath: target + "/" + name)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        }
        #expect(try mode("run.sh") == 0o755 && mode("a.txt") == 0o644 && mode("empty") == 0o700)
        #expect(try time("a.txt") == 1_600_000_000 && time("sub/deeper") == 1_600_000_000 && time("sub") == 1_600_000_000)
    }

    @Test(arguments: ServerKind.allCases)
    func aCutCopyLeavesNoTargetAndResumesWithoutMovingWhatArrived(kind: ServerKind) async throws {
        let (remote, local) = try Self.fixture()
        let target = local + "/copy"
        let server = try FileRoute.sftp.server(kind)
        // 2 MB/s: the cut lands in the middle of the 8 MB file, whatever the windows hold.
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 2_000_000))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(server.configuration(through: proxy))
        await #expect(throws: (any Error).self) {
            try await connection.downloadDirectory(remote, to: target) { progress in
                if progress.bytes > 100_000 { proxy.cutAll() }
            }
        }
        await connection.close()
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(FileManager.default.fileExists(atPath: SSHConnection.partialTransferPath(for: target)))

        let resumed = try await server.withConnection { try await $0.downloadDirectory(remote, to: target, resume: true) }
        #expect(resumed.bytes == resumed.total && resumed.transferred < resumed.total, "\(resumed)")
        #expect(
            FileManager.default.contents(atPath: target + "/sub/deeper/b.bin")
                == FileManager.default.contents(atPath: remote + "/sub/deeper/b.bin"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: local) == ["copy"])
    }

    /// A cancelled copy stops between files (not at the end of the tree) and leaves its
    /// temporary for `resume`, never the target.
    @Test func aCancelledTreeDownloadOverASlowLinkStopsSoonAndLeavesNoTarget() async throws {
        let remote = try FileFixtures.scratchDirectory("slow-files")
        for index in 0..<100 { try FileFixtures.makeFile(remote + "/\(index).txt", Data("\(index)".utf8)) }
        let target = try FileFixtures.scratchDirectory("gotslow") + "/cancelled"
        let (outcome, took) = try await Self.cancelledMidway { try await $0.downloadDirectory(remote, to: target, progress: $1) }
        #expect(throws: (any Error).self) { try outcome.get() }
        #expect(took < .seconds(5), "\(took)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(FileManager.default.fileExists(atPath: SSHConnection.partialTransferPath(for: target)))
    }

    /// Runs `transfer` over a link with 50 ms of latency, cancels it once three bytes (three of the
    /// fixtures' one- and two-byte files) have gone, and returns its outcome and how long it went on
    /// after the cancel.
    static func cancelledMidway(
        _ transfer: @escaping @Sendable (SSHConnection, @escaping @Sendable (TransferProgress) -> Void) async throws -> TransferProgress
    ) async throws -> (outcome: Result<TransferProgress, any Error>, took: Duration) {
        let server = try SharedTestServer.get(.default)
        let proxy = try FaultProxy(targetPort: server.port, link: .init(latency: .milliseconds(50)))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        let sent = Atomic<UInt64>(0)
        let running = Task { try await transfer(connection) { sent.store($0.bytes, ordering: .relaxed) } }
        let underway = try await Eventually.holds(within: .seconds(30)) { sent.load(ordering: .relaxed) >= 3 }
        let cancelled = ContinuousClock.now
        running.cancel()
        let outcome = await running.result
        let took = ContinuousClock.now - cancelled
        await connection.close()
        try #require(underway, "the copy never got under way")
        return (outcome, took)
    }

    @Test func anExistingTargetIsRefusedAndAFileNeedsNoTree() async throws {
        let (remote, local) = try Self.fixture()
        try FileManager.default.createDirectory(atPath: local + "/there", withIntermediateDirectories: false)
        _ = try await FileRoute.sftp.withConnection(.default) { connection in
            await #expect(throws: TransferError.targetExists(path: local + "/there")) {
                try await connection.downloadDirectory(remote, to: local + "/there")
            }
            await #expect(throws: TransferError.notADirectory(path: remote + "/a.txt")) {
                try await connection.downloadDirectory(remote + "/a.txt", to: local + "/x")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: local) == ["there"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: local + "/there").isEmpty)
    }
}
