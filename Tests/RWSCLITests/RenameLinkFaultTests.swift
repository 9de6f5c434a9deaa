import Foundation
import RWSTestSupport
import Testing

/// The link cut or black-holed at points of `rws rename`: it ends with 0, or with 255 saying the
/// connection was lost and to rename again, and the session on the box stays whole — as it was,
/// or with the whole title line, never a part of one. One case at a time: dropbear refuses a
/// burst of unauthenticated connections from one address.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RenameLinkFaultTests {
    typealias Fault = ExportLinkFaultTests.Fault

    /// How far into a rename the link goes: a share of the bytes a whole rename moved. A black
    /// hole is found by keepalives whenever it starts, so one share of it is enough.
    static let renameCases: [(ServerKind, Fault, Double)] = ServerKind.allCases.flatMap { kind in
        [(kind, .cut, 0.5), (kind, .cut, 0.8), (kind, .cut, 0.95), (kind, .blackHole, 0.8)]
    }

    @Test(arguments: renameCases)
    func aRenameWhoseLinkIsLostLeavesTheSessionWholeAndSaysSo(kind: ServerKind, fault: Fault, share: Double) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let file = try box.writeSession(
            ExportLinkFaultTests.id,
            lines: [
                #"{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"\#(ExportLinkFaultTests.id)","cwd":"/p","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"rename me"}}"#
            ])
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        // A whole rename through a quiet proxy, to know how many bytes one moves.
        let measure = try FaultProxy(targetPort: box.server.port, link: FaultProxy.Link(latency: .milliseconds(50)))
        let first = try await RWSBinary.run(
            ["rename"] + (try box.server.rwsFlags(through: measure)) + [
                "--claude-dir", box.claudeDirectory, ExportLinkFaultTests.id, "First",
            ],
            home: box.localHome)
        let whole = measure.forwardedBytes
        measure.stop()
        #expect(first.status == 0, "\(first)")
        let renamed = try Data(contentsOf: URL(fileURLWithPath: file))

        let proxy = try FaultProxy(targetPort: box.server.port, link: FaultProxy.Link(latency: .milliseconds(50)))
        defer { proxy.stop() }
        let flags = try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let outcome = try await RWSBinary.run(
            ["rename"] + flags + ["--claude-dir", box.claudeDirectory, ExportLinkFaultTests.id, "Second"], home: box.localHome,
            until: { _ in Double(proxy.forwardedBytes) >= share * Double(whole) }, within: .seconds(30)
        ) { _ in ExportLinkFaultTests.apply(fault, to: proxy) }
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
