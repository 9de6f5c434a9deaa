import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `rws get` and `rws put` whose link is lost in the middle (through the fault proxy at 1 MB/s),
/// cut (every connection reset) or black-holed (nothing moves, nothing is reset; rws finds the link
/// dead by its keepalives): exit 255 with how to go on, no target, the temporary kept; the same
/// command with `--resume` then moves only the rest and the copy is byte for byte the original.
@Suite(.timeLimit(.minutes(1))) struct TransferResumeCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path
    static let contents = Data(TestBytes.make(3_000_000, seed: 3))
    static let big = Data(TestBytes.make(12_000_000, seed: 4))

    /// How the link is lost.
    enum Fault: CaseIterable, Sendable {
        case cut, blackHole

        /// Loses `proxy`'s link this way.
        func apply(to proxy: FaultProxy) {
            switch self {
            case .cut: proxy.cutAll()
            case .blackHole: proxy.setBlackHole(true)
            }
        }

        /// rws's flags through `proxy`: for a black hole, a keepalive each second and the link dead
        /// after four unanswered, so it is found within seconds instead of rws's default 20.
        func flags(_ server: TestSSHServer, through proxy: FaultProxy) throws -> [String] {
            try server.rwsFlags(through: proxy, keepalive: self == .blackHole ? (interval: 1, count: 4) : nil)
        }
    }

    /// Runs rws with `arguments`, loses the link of `proxy` by `fault` once `ready` holds (the
    /// transfer reached the point the test names; 20 s at most), and expects exit 255: rws reports
    /// the lost link and how to go on, and exits, never dies of a signal (a crash prints its
    /// backtrace on stderr, shown here). A fixed moment would cut a slow start before its first
    /// byte on a busy machine.
    private func lose(
        _ arguments: [String], through proxy: FaultProxy, by fault: Fault = .cut, when ready: @escaping @Sendable () -> Bool
    ) async throws -> RWSBinary.Outcome {
        let outcome = try await RWSBinary.run(arguments, home: home, until: { _ in ready() }, within: .seconds(20)) { _ in
            fault.apply(to: proxy)
        }
        #expect(outcome.killedBy == nil && outcome.status == 255, "\(outcome.status): \(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix("rws: connection lost: ")
                && outcome.stderr.hasSuffix("; run the same command with --resume to go on from what arrived\n"), "\(outcome.stderr)")
        return outcome
    }

    @Test(arguments: ServerKind.allCases, Fault.allCases)
    func aGetWhoseLinkIsLostLeavesItsTemporaryAndResumeFinishesIt(kind: ServerKind, fault: Fault) async throws {
        let server = try SharedTestServer.get(kind)
        let remote = server.remoteHome + "/resume-get-\(UUID().uuidString.prefix(8)).bin"
        try Self.contents.write(to: URL(fileURLWithPath: remote))
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("rws-resume-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: here)
            try? FileManager.default.removeItem(atPath: remote)
        }
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 1_000_000))
        defer { proxy.stop() }
        let target = here + "/copy.bin"
        let part = here + "/.copy.bin.rws-part"
        _ = try await lose(["get"] + (try fault.flags(server, through: proxy)) + [remote, target], through: proxy, by: fault) {
            Self.size(of: part) > 0
        }
        #expect(!FileManager.default.fileExists(atPath: target))
        try await Self.expectNothingOnTheBoxHolds(remote, after: fault)
        let partial = try Data(contentsOf: URL(fileURLWithPath: here + "/.copy.bin.rws-part"))
        #expect(partial.count > 0 && partial.count < Self.contents.count)
        let resumed = try await RWSBinary.run(["get"] + server.rwsFlags + [remote, target, "--resume"], home: home)
        #expect(resumed.status == 0 && resumed.stderr.isEmpty, "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: here) == ["copy.bin"])
    }

    @Test(arguments: ServerKind.allCases)
    func aPutCutInItsFirstChunkLeavesNoOtherFileOnTheBox(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let folder = "resume-first-\(UUID().uuidString.prefix(8))"
        let there = server.remoteHome + "/" + folder
        try FileManager.default.createDirectory(atPath: there, withIntermediateDirectories: true)
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("rws-first-\(UUID().uuidString.prefix(8)).bin").path
        try Self.contents.write(to: URL(fileURLWithPath: local))
        defer {
            try? FileManager.default.removeItem(atPath: there)
            try? FileManager.default.removeItem(atPath: local)
        }
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 1_000_000))
        defer { proxy.stop() }
        let part = there + "/.copy.bin.rws-part"
        _ = try await lose(["put"] + (try server.rwsFlags(through: proxy)) + [local, "~/" + folder + "/copy.bin"], through: proxy) {
            FileManager.default.fileExists(atPath: part)
        }
        try await Self.expectNothingOnTheBoxHolds(part, after: .cut)
        let left = try FileManager.default.contentsOfDirectory(atPath: there)
        #expect(left.allSatisfy { $0 == ".copy.bin.rws-part" }, "\(left)")
    }

    @Test(arguments: ServerKind.allCases, Fault.allCases)
    func aPutWhoseLinkIsLostLeavesItsTemporaryOnTheBoxAndResumeFinishesIt(kind: ServerKind, fault: Fault) async throws {
        let server = try SharedTestServer.get(kind)
        let folder = "resume-put-\(UUID().uuidString.prefix(8))"
        let there = server.remoteHome + "/" + folder
        try FileManager.default.createDirectory(atPath: there, withIntermediateDirectories: true)
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("rws-resume-\(UUID().uuidString.prefix(8)).bin").path
        try Self.big.write(to: URL(fileURLWithPath: local))
        defer {
            try? FileManager.default.removeItem(atPath: there)
            try? FileManager.default.removeItem(atPath: local)
        }
        // put sends 4 MiB chunks: lose the link during the second one.
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 4_000_000))
        defer { proxy.stop() }
        let part = there + "/.copy.bin.rws-part"
        let arguments = ["put"] + (try fault.flags(server, through: proxy)) + [local, "~/" + folder + "/copy.bin"]
        _ = try await lose(arguments, through: proxy, by: fault) {
            Self.size(of: part) > 4 << 20
        }
        #expect(!FileManager.default.fileExists(atPath: there + "/copy.bin"))
        try await Self.expectNothingOnTheBoxHolds(part, after: fault)
        let left = try FileManager.default.contentsOfDirectory(atPath: there)
        #expect(left == [".copy.bin.rws-part"], "\(left)")
        let partial = try Data(contentsOf: URL(fileURLWithPath: there + "/.copy.bin.rws-part"))
        #expect(partial.count < Self.big.count)
        let resumed = try await RWSBinary.run(["put"] + server.rwsFlags + [local, "~/" + folder + "/copy.bin", "--resume"], home: home)
        #expect(resumed.status == 0 && resumed.stderr.isEmpty, "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: there + "/copy.bin")) == Self.big)
        #expect(try FileManager.default.contentsOfDirectory(atPath: there) == ["copy.bin"])
    }

    /// After a cut, the box's server sees the reset and ends the session: within seconds nothing
    /// there (its SFTP server, a `cat` or `dd` of the shell transport) has the file open. A black
    /// hole resets nothing, so the box's server holds the session, and the file, until it drops
    /// the connection itself; rws cannot reach it to end it sooner.
    private static func expectNothingOnTheBoxHolds(_ path: String, after fault: Fault) async throws {
        guard fault == .cut else { return }
        let released = try await Eventually.holds(within: .seconds(10), every: .milliseconds(100)) {
            LocalProcessTable.holding(path).isEmpty
        }
        #expect(released, "still open on the box after the cut: \(LocalProcessTable.holding(path))")
    }

    /// The size of the file at `path`, 0 while it is not there.
    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
