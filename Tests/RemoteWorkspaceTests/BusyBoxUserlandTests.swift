import Foundation
import RWSTestSupport
import SSHClient
import SessionHistory
import Testing

@testable import RemoteWorkspace

/// The remote scripts give the same answers with BusyBox's sh, find, stat, head and tail as
/// with GNU coreutils and dash. BusyBox runs from a folder of applet links put first on PATH.
@Suite struct BusyBoxUserlandTests {
    static let applets = ["sh", "find", "stat", "head", "tail", "sleep", "rm", "cat", "gzip", "grep", "awk", "sort", "sed"]

    /// A folder of BusyBox applet links; fails loudly when BusyBox is not installed.
    static func appletFolder(in sandbox: TestBox) throws -> String {
        try Prerequisites.require("/usr/bin/busybox", package: "busybox")
        let folder = sandbox.root + "/busybox-bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for applet in applets {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + applet, withDestinationPath: "/usr/bin/busybox")
        }
        return folder
    }

    /// Runs `script` once as is and once with only BusyBox on PATH; returns both outputs split into sections.
    static func runBoth(
        _ script: RemoteScript, _ arguments: [RemoteScript.Argument], input: [UInt8] = [], argumentsOnInput: Bool = false,
        busybox: String, on connection: SSHConnection
    ) async throws -> (gnu: [OutputSection], busybox: [OutputSection]) {
        var results: [[OutputSection]] = []
        for prefix in ["", "PATH=\(busybox); export PATH; "] {
            let boundary = "rws-test-boundary"
            let all = [RemoteScript.Argument.word(boundary)] + arguments
            let (line, stdin) =
                argumentsOnInput ? (try script.commandLine([]), try RemoteScript.input(all)) : (try script.commandLine(all), input)
            let result = try await connection.run(prefix + line, input: stdin, timeout: .seconds(30))
            #expect(result.status.isSuccess, "\(result.stderrText)")
            var reader = SectionReader(boundary: boundary)
            results.append(reader.feed(result.stdout) + reader.finish())
        }
        return (results[0], results[1])
    }

    /// The listing script's arguments for `input` (its length is one of them).
    static func listingArguments(_ input: [UInt8], _ sandbox: TestBox) -> [RemoteScript.Argument] {
        ListingScript.arguments(inputBytes: input.count, window: 4_096, projectPattern: "*", folders: [sandbox.claudeProjects])
    }

    /// The listing script's output for one projects folder: its folders, and the counts after `counting`.
    static func listing(_ sections: [OutputSection], folder: String) throws -> (folders: [ListedFolder], counts: [String: Int]) {
        let split = sections.firstIndex { $0.header == "counting" } ?? sections.endIndex
        #expect(sections.last?.header == "end" && split < sections.endIndex)
        let folders = try ListedFolder.parse(Array(sections[..<split]), folders: [folder], window: 4_096)
        let counts = try ListedFolder.counts(in: Array(sections[split...].dropFirst().dropLast()), folders: [folder])
        return (folders, counts[folder] ?? [:])
    }

    @Test(arguments: ServerKind.allCases)
    func theListingScriptSeesTheSameFilesAndBytes(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["daaain__claude-code-log__0", "daaain__claude-code-log__2", "agent-", "ef958aa1"])
        // A rename 20 KB in (inside the wide head) and one in the middle of 300 KB (beyond both wide windows).
        let filler = (0..<100).map { _ in #"{"type":"progress","data":"\#(String(repeating: "f", count: 200))"}"# }
        let rename = #"{"type":"custom-title","customTitle":"Named","sessionId":"x"}"#
        try sandbox.writeSession("77777777-0000-0000-0000-000000000001", lines: filler + [rename] + filler)
        try sandbox.writeSession(
            "77777777-0000-0000-0000-000000000002",
            lines: Array(repeating: filler, count: 7).joined() + [rename] + Array(repeating: filler, count: 7).joined())
        let busybox = try Self.appletFolder(in: sandbox)
        try await sandbox.server.withConnection { connection in
            let arguments = ListingScript.arguments(window: 4_096, projectPattern: "*", folders: [sandbox.claudeProjects])
            let (gnu, bb) = try await Self.runBoth(ListingScript.script, arguments, busybox: busybox, on: connection)
            let (gnuFolders, gnuCounts) = try Self.listing(gnu, folder: sandbox.claudeProjects)
            let (bbFolders, bbCounts) = try Self.listing(bb, folder: sandbox.claudeProjects)
            #expect(bb.last?.header == "end")
            #expect(gnuFolders.count == 1)
            #expect(gnuFolders.first?.files.count ?? 0 > 10)
            #expect(bbFolders.first?.files.sorted { $0.path < $1.path } == gnuFolders.first?.files.sorted { $0.path < $1.path })
            #expect(bbFolders.first?.heads.mapValues(\.bytes) == gnuFolders.first?.heads.mapValues(\.bytes))
            #expect(bbFolders.first?.tails.mapValues(\.bytes) == gnuFolders.first?.tails.mapValues(\.bytes))
            #expect(gnuFolders.first?.heads.values.allSatisfy(\.isExact) == true)
            // Message lines counted by BusyBox's grep and GNU grep, and as the local listing counts them.
            #expect(bbCounts == gnuCounts)
            for (path, count) in gnuCounts {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.claudeProjects + "/" + path)))
                #expect(MessageLines.count(in: bytes) == count, "\(path)")
            }
            #expect(gnuCounts.count == gnuFolders.first?.files.filter(\.isTopLevelTranscript).count)
            // Files with a title line in their wide windows, named by both as the local listing tells them.
            #expect(bbFolders.first?.titled == gnuFolders.first?.titled)
            #expect(gnuFolders.first?.titled.contains { $0.hasSuffix("77777777-0000-0000-0000-000000000001.jsonl") } == true)
            for file in gnuFolders[0].files where file.isTopLevelTranscript {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.claudeProjects + "/" + file.path)))
                #expect(TitleLines.present(inFirstOrLast: 65_536, of: bytes) == gnuFolders[0].titled.contains(file.path), "\(file.path)")
            }

            // Told an older size of every file, the script sends the same appended ranges on both.
            let transcripts = gnuFolders[0].files.filter(\.isTopLevelTranscript)
            let known = transcripts.map {
                ListingScript.Known(
                    path: sandbox.claudeProjects + "/" + $0.path, identity: $0.identity, size: max(0, $0.size - 5_000), mtime: $0.mtime)
            }
            let grown = try await Self.runBoth(
                ListingScript.script, Self.listingArguments(ListingScript.input(known: known, folders: [sandbox.claudeProjects]), sandbox),
                input: ListingScript.input(known: known, folders: [sandbox.claudeProjects]),
                busybox: busybox, on: connection)
            let gnuRanges = try Self.listing(grown.gnu, folder: sandbox.claudeProjects).folders[0].ranges
            let bbRanges = try Self.listing(grown.busybox, folder: sandbox.claudeProjects).folders[0].ranges
            #expect(!gnuRanges.isEmpty)
            #expect(bbRanges.mapValues { $0.map(\.bytes) } == gnuRanges.mapValues { $0.map(\.bytes) })

            // Told every file as it is (the first one under another name, as after a move), both send nothing but the stat lines.
            let unchanged = transcripts.enumerated().map { index, file in
                ListingScript.Known(
                    path: sandbox.claudeProjects + "/" + (index == 0 ? "moved/" : "") + file.path, identity: file.identity, size: file.size,
                    mtime: file.mtime)
            }
            let same = try await Self.runBoth(
                ListingScript.script,
                Self.listingArguments(ListingScript.input(known: unchanged, folders: [sandbox.claudeProjects]), sandbox),
                input: ListingScript.input(known: unchanged, folders: [sandbox.claudeProjects]),
                busybox: busybox, on: connection)
            for sections in [same.gnu, same.busybox] {
                #expect(sections.map(\.header) == ["dir 1", "counting", "end"])
                let folder = try Self.listing(sections, folder: sandbox.claudeProjects).folders[0]
                #expect(folder.files.sorted { $0.path < $1.path } == gnuFolders[0].files.sorted { $0.path < $1.path })
            }
        }
    }

    /// BusyBox's grep, awk and sort find the same records and send the same windows as GNU grep
    /// and mawk, for plain, accented and escaped text.
    @Test(arguments: ServerKind.allCases)
    func theSearchScriptFindsTheSameMatches(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["daaain__claude-code-log__0", "daaain__claude-code-log__2", "agent-", "ef958aa1"])
        try sandbox.writeSession("s-foreign", lines: SessionSearchTests.foreignLines)
        let busybox = try Self.appletFolder(in: sandbox)
        try await sandbox.server.withConnection { connection in
            for query in ["permission", "café", "say \"bonjour\"", "FÉVR", "the"] {
                let arguments = SessionSearchScript.arguments(
                    pattern: try SearchPattern.text(query), projectPattern: "*", since: 0, limits: SessionSearchLimits(),
                    folders: [sandbox.claudeProjects])
                let (gnu, bb) = try await Self.runBoth(SessionSearchScript.script, arguments, busybox: busybox, on: connection)
                #expect(bb.last?.header == "end")
                #expect(bb.map(\.header) == gnu.map(\.header), "\(query)")
                #expect(bb.map(\.content) == gnu.map(\.content), "\(query)")
                #expect(gnu.contains { $0.header == "hits" && !$0.content.isEmpty }, "\(query)")
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func rangedReadsFollowingAndEditingWorkTheSame(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let busybox = try Self.appletFolder(in: sandbox)
        let path = try sandbox.writeSession(
            "88888888-0000-0000-0000-000000000008",
            lines: (1...50).map {
                Records.user("line \($0)", uuid: "u\($0)", parent: nil, session: "8")
            })
        try await sandbox.server.withConnection { connection in
            let ranges: [RemoteScript.Argument] = [.path(path), .word("0"), .word("100"), .path(path), .word("1000"), .word("333")]
            let read = try await Self.runBoth(
                RemoteByteReader.script, [.word("raw")] + ranges, argumentsOnInput: true, busybox: busybox, on: connection)
            #expect(read.gnu.map(\.content) == read.busybox.map(\.content))
            #expect(read.gnu.first?.content.count == 100)
            // Compressed: BusyBox's gzip applet gives other bytes that inflate to the same.
            let packed = try await Self.runBoth(
                RemoteByteReader.script, [.word("6")] + ranges, argumentsOnInput: true, busybox: busybox, on: connection)
            #expect(
                packed.busybox.dropLast().allSatisfy { $0.header.hasSuffix(" 6") } && packed.busybox.count == 3,
                "\(packed.busybox.map(\.header))")
            #expect(try packed.busybox.map { try Gunzip.decompress($0.content, step: "test") } == read.gnu.map(\.content))
            #expect(try packed.gnu.map { try Gunzip.decompress($0.content, step: "test") } == read.gnu.map(\.content))

            // From the start the loop reads with `head`, from an offset with `tail`.
            let whole = try Data(contentsOf: URL(fileURLWithPath: path)).map { $0 }
            for offset in [0, 100] {
                let follow: [RemoteScript.Argument] = [.path(path), .word(String(offset)), .word(""), .word("0.1"), .word("50")]
                var outputs: [[UInt8]] = []
                for prefix in ["", "PATH=\(busybox); export PATH; "] {
                    let command = try connection.stream(prefix + (try FollowScript.script.commandLine([.word("B")] + follow)))
                    var reader = SectionReader(boundary: "B")
                    var data: [UInt8] = []
                    loop: for try await event in command.output {
                        guard case .stdout(let bytes) = event else { continue }
                        // A section is complete when the next marker (`done`) has arrived.
                        for section in reader.feed(bytes) where section.header.hasPrefix("data") {
                            data = section.content
                            break loop
                        }
                    }
                    command.cancel()
                    outputs.append(data)
                }
                #expect(outputs[0] == Array(whole.dropFirst(offset)))
                #expect(outputs[1] == outputs[0])
            }

            let line = try SessionEditing.titleLine(title: "from busybox", sessionId: "8")
            let append = try await connection.run(
                "PATH=\(busybox); export PATH; " + (try SessionEditing.appendScript.commandLine([.path(path), .word(line)])))
            #expect(append.status.isSuccess)
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix(line + "\n"))
        }
    }
}
