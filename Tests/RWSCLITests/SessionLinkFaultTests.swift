import Foundation
import Platform
import RWSTestSupport
import Testing

/// The link cut or black-holed while `rws export` loads a session and while `rws rename` retitles
/// one: rws ends with 255 saying the connection was lost, writes no file here (export) and leaves
/// the session whole on the box (rename: as it was, or retitled; never a part of a line). One
/// case at a time: dropbear refuses a burst of unauthenticated connections from one address.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SessionLinkFaultTests {
    enum Fault: String, CaseIterable, Sendable { case cut, blackHole }

    static let id = "5e55f417-0000-4000-8000-00000000fa17"

    /// A session of 4,000 answers of 3 KB of random text each (12 MB that do not compress), so
    /// that loading it through a 4 MB/s link takes seconds.
    private static func bigSession(in box: TestBox) throws -> String {
        var random = SeededRandom(seed: 0xFA17)
        var lines = [
            #"{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"\#(id)","cwd":"/p","#
                + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"big"}}"#
        ]
        for number in 1...4000 {
            let text = Data((0..<2304).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString()
            lines.append(
                #"{"type":"assistant","uuid":"a\#(number)","parentUuid":"\#(number == 1 ? "u0" : "a\(number - 1)")","#
                    + #""sessionId":"\#(id)","timestamp":"2026-02-03T04:05:07.000Z","message":{"id":"m\#(number)","#
                    + #""role":"assistant","model":"claude-test","content":[{"type":"text","text":"\#(text)"}]}}"#)
        }
        return try box.writeSession(id, lines: lines)
    }

    private static func apply(_ fault: Fault, to proxy: FaultProxy) {
        switch fault {
        case .cut: proxy.cutAll()
        case .blackHole: proxy.setBlackHole(true)
        }
    }

    static let cases: [(ServerKind, Fault)] = ServerKind.allCases.flatMap { kind in Fault.allCases.map { (kind, $0) } }

    @Test(arguments: cases)
    func anExportWhoseLinkIsLostWhileItLoadsEndsWith255AndWritesNothing(kind: ServerKind, fault: Fault) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        _ = try Self.bigSession(in: box)
        let proxy = try FaultProxy(targetPort: box.server.port, link: FaultProxy.Link(bytesPerSecond: 4_000_000))
        defer { proxy.stop() }
        let flags = try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let folder = box.root + "/export-here"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        let outcome = try await RWSBinary.run(
            ["export"] + flags + ["--claude-dir", box.claudeDirectory, Self.id, "-o", folder + "/session.md"], home: box.localHome,
            until: { _ in proxy.forwardedBytes > 2_000_000 }, within: .seconds(30)
        ) { _ in Self.apply(fault, to: proxy) }
        #expect(outcome.status == 255, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("rws: connection lost while loading session \(Self.id) ("), "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("); nothing was written: run the same export again\n"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("may still be running"), "a reader is no command of the user's: \(outcome.stderr)")
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "a file was left here")
    }
}

extension SessionLinkFaultTests {
    /// How far into a rename the link goes: a share of the bytes a whole rename moved.
    static let renameCases: [(ServerKind, Fault, Double)] = ServerKind.allCases.flatMap { kind in
        Fault.allCases.flatMap { fault in [0.5, 0.8, 0.95].map { (kind, fault, $0) } }
    }

    @Test(arguments: renameCases)
    func aRenameWhoseLinkIsLostLeavesTheSessionWholeAndSaysSo(kind: ServerKind, fault: Fault, share: Double) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let file = try box.writeSession(
            Self.id,
            lines: [
                #"{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"\#(Self.id)","cwd":"/p","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"rename me"}}"#
            ])
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        // A whole rename through a quiet proxy, to know how many bytes one moves.
        let measure = try FaultProxy(targetPort: box.server.port, link: FaultProxy.Link(latency: .milliseconds(50)))
        let first = try await RWSBinary.run(
            ["rename"] + (try box.server.rwsFlags(through: measure)) + ["--claude-dir", box.claudeDirectory, Self.id, "First"],
            home: box.localHome)
        let whole = measure.forwardedBytes
        measure.stop()
        #expect(first.status == 0, "\(first)")
        let renamed = try Data(contentsOf: URL(fileURLWithPath: file))

        let proxy = try FaultProxy(targetPort: box.server.port, link: FaultProxy.Link(latency: .milliseconds(50)))
        defer { proxy.stop() }
        let flags = try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let outcome = try await RWSBinary.run(
            ["rename"] + flags + ["--claude-dir", box.claudeDirectory, Self.id, "Second"], home: box.localHome,
            until: { _ in Double(proxy.forwardedBytes) >= share * Double(whole) }, within: .seconds(30)
        ) { _ in Self.apply(fault, to: proxy) }
        proxy.setBlackHole(false)
        let after = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(after.starts(with: renamed), "the session lost bytes")
        let added = String(decoding: after.dropFirst(renamed.count), as: UTF8.self)
        switch outcome.status {
        case 0:
            #expect(added.hasPrefix(#"{"type":"custom-title","customTitle":"Second""#) && added.hasSuffix("}\n"), "\(added)")
        case 255:
            #expect(outcome.stderr.hasPrefix("rws: connection lost while "), "\(outcome.stderr)")
            #expect(outcome.stderr.contains(" Run the same rename again"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("may still be running"), "\(outcome.stderr)")
            // Whether the box ran the rename before the link went, its line is whole or absent.
            #expect(added.isEmpty || (added.hasPrefix(#"{"type":"custom-title""#) && added.hasSuffix("}\n")), "\(added)")
        default:
            Issue.record("rename ended with \(outcome.status): \(outcome.stderr)")
        }
        #expect(before.count < renamed.count)
    }
}
