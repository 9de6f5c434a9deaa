import Foundation
import RWSTestSupport
import Testing

/// `rws clone` progress fitted to where stderr goes: one line redrawn in place on a terminal,
/// one line per finished phase on a pipe, and `--json`'s stdout untouched by either.
@Suite struct CloneProgressOutputTests {
    static let phases = [
        "Enumerating objects", "Counting objects", "Compressing objects", "Receiving objects", "Resolving deltas", "Checking objects",
        "Checking connectivity", "Updating files",
    ]

    /// A bare repository of 40 files in `box`: the source to clone.
    static func repository(in box: TestBox) throws -> String {
        let bare = box.root + "/source.git"
        try Shell.sh(
            "git init -q '\(box.root)/work' && cd '\(box.root)/work' && for i in $(seq 1 40); do echo \"file $i\" > f$i.txt; done"
                + " && git add . && git -c user.name=t -c user.email=t@t commit -qm files && git clone -q --bare . '\(bare)'")
        return "file://" + bare
    }

    @Test(arguments: ServerKind.allCases)
    func onAPipeEachFinishedPhaseIsOneLine(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (source, flags, home) = (try Self.repository(in: box), box.rwsFlags + ["--allow-local"], box.localHome)
        let cloned = try await RWSBinary.run(["clone", source, "--name", "app", "--json"] + flags, home: home)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(!cloned.stderr.contains("\r") && !cloned.stderr.contains("\u{1B}"))
        let lines = cloned.stderr.split(separator: "\n").map(String.init)
        for phase in Self.phases where lines.contains(where: { $0.hasPrefix(phase) }) {
            #expect(lines.filter { $0.hasPrefix(phase) }.count == 1, "\(phase) more than once:\n\(cloned.stderr)")
        }
        #expect(lines.contains { $0.hasPrefix("Receiving objects: 100% (") }, "\(cloned.stderr)")
        #expect(lines.filter { $0.contains("%") }.allSatisfy { $0.contains("100% (") }, "only finished phases:\n\(cloned.stderr)")
        #expect(lines.count <= Self.phases.count + 3, "\(lines.count) lines:\n\(cloned.stderr)")
        // --json: stdout is the project object alone.
        let project = try JSONSerialization.jsonObject(with: Data(cloned.stdout.utf8)) as? [String: Any]
        #expect(project?["name"] as? String == "app")
    }

    @Test(arguments: ServerKind.allCases)
    func onATerminalProgressIsOneLineRedrawnInPlace(kind: ServerKind) throws {
        try Prerequisites.require("/usr/bin/script", package: "bsdutils")
        let box = try TestBox(kind)
        defer { box.remove() }
        let (source, flags, home) = (try Self.repository(in: box), box.rwsFlags + ["--allow-local"], box.localHome)
        let command = ([RWSBinary.path, "clone", source, "--name", "app"] + flags).map { "'\($0)'" }.joined(separator: " ")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let transcript = home + "/typescript"
        // `script` gives rws a real terminal, 60 columns wide.
        try Shell.run(
            "/usr/bin/script", ["-q", "-e", "-c", "stty cols 60 rows 20; HOME='\(home)' " + command, transcript],
            environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm"])
        let raw = try String(contentsOfFile: transcript, encoding: .utf8)
        let rawLines = raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        // What the terminal keeps of each line: the text after its last carriage return.
        let lines = rawLines.map { String($0.split(separator: "\r", omittingEmptySubsequences: false).last ?? "") }
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
        let progressLines = lines.filter { line in Self.phases.contains { line.contains($0) } }
        #expect(progressLines.count == 1, "progress left \(progressLines.count) lines:\n\(lines.joined(separator: "\n"))")
        let redraws = rawLines.flatMap { $0.split(separator: "\r") }.map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
            .filter { line in Self.phases.contains { line.hasPrefix($0) } }
        #expect(redraws.count > 3, "not redrawn in place: \(raw.debugDescription)")
        #expect(redraws.allSatisfy { $0.count < 60 }, "a redraw wider than the terminal: \(redraws)")
        #expect(redraws.contains { $0.hasPrefix("Receiving objects") && $0.contains("%") && $0.contains("/") })
        #expect(lines.contains { $0.hasPrefix("cloned into ") })
    }
}
