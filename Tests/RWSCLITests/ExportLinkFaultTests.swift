import Foundation
import Platform
import RWSTestSupport
import Testing

/// The link cut or black-holed while `rws export -o` loads a session: rws ends with 255 saying
/// the connection was lost and to export again, and writes no file here. One case at a time:
/// dropbear refuses a burst of unauthenticated connections from one address.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ExportLinkFaultTests {
    enum Fault: String, CaseIterable, Sendable { case cut, blackHole }

    static let id = "5e55f417-0000-4000-8000-00000000fa17"

    /// 1 MiB of seeded random bytes, made once: the answers below are slices of it.
    private static let noise: [UInt8] = {
        var random = SeededRandom(seed: 0xFA17)
        return (0..<(1 << 17)).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
    }()

    /// A session of 4,000 answers of 3 KB of random text each (12 MB that do not compress: each
    /// answer is another slice of ``noise``, and gzip looks back only 32 KB), so that loading it
    /// through a 4 MB/s link takes seconds.
    private static func bigSession(in box: TestBox) throws -> String {
        var lines = [
            #"{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"\#(id)","cwd":"/p","#
                + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"big"}}"#
        ]
        for number in 1...4000 {
            let start = (number * 2304) % (noise.count - 2304)
            let text = Data(noise[start..<start + 2304]).base64EncodedString()
            lines.append(
                #"{"type":"assistant","uuid":"a\#(number)","parentUuid":"\#(number == 1 ? "u0" : "a\(number - 1)")","#
                    + #""sessionId":"\#(id)","timestamp":"2026-02-03T04:05:07.000Z","message":{"id":"m\#(number)","#
                    + #""role":"assistant","model":"claude-test","content":[{"type":"text","text":"\#(text)"}]}}"#)
        }
        return try box.writeSession(id, lines: lines)
    }

    static func apply(_ fault: Fault, to proxy: FaultProxy) {
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
