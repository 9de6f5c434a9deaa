import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// The remote listing must say exactly what the local listing says about the same files, for
/// any file: random records, lines around the window sizes, fields missing, lines cut.
@Suite struct SessionListingPropertyTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func remoteListingEqualsLocalListingOnRandomSessions(seed: UInt64) async throws {
        // The scripts are the same everywhere: one seed crosses the wire, the rest run here.
        let sandbox = try TestBox(place: seed == 1 ? ScriptPlace(.default) : .local)
        defer { sandbox.remove() }
        var generator = RandomSessionGenerator(seed: seed)
        for number in 0..<24 {
            let project = "-home-dev-p\(number % 3)"
            let folder = URL(fileURLWithPath: sandbox.claudeProjects).appendingPathComponent(project)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (name, bytes) = generator.session()
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            if number % 4 == 1 {
                let (agentName, agentBytes) = generator.agent(of: String(name.dropLast(6)))
                try Data(agentBytes).write(to: folder.appendingPathComponent(agentName))
            }
            if number % 5 == 2 {
                // 2.1.x subagents: counted, but not the compaction agent or the sidecar.
                let nested = folder.appendingPathComponent(String(name.dropLast(6))).appendingPathComponent("subagents")
                try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
                for agent in ["agent-a1b2c3.jsonl", "agent-acompact-0f0f0f.jsonl", "agent-a1b2c3.meta.json"] {
                    try Data(generator.agent(of: String(name.dropLast(6))).bytes).write(to: nested.appendingPathComponent(agent))
                }
            }
        }

        let remote = try await sandbox.withSessions(cache: false) { try await $0.listing(includeUnlisted: true) }.sessions
        var local: [LocalSessionListing] = []
        for project in try FileManager.default.contentsOfDirectory(atPath: sandbox.claudeProjects).sorted() {
            local += try LocalProject.listSessions(
                in: URL(fileURLWithPath: sandbox.claudeProjects).appendingPathComponent(project),
                includeUnlisted: true)
        }

        #expect(Set(remote.map(\.id)) == Set(local.map(\.summary.id)), "seed \(seed)")
        #expect(local.contains { !$0.subagentFiles.isEmpty }, "seed \(seed): no agent file attached, the generator lost them")
        for listing in local {
            let match = remote.first { $0.id == listing.summary.id }
            #expect(match != nil, "seed \(seed): \(listing.summary.id) not listed remotely")
            guard let match else { continue }
            #expect(
                Self.differences(match.summary, listing.summary).isEmpty,
                "seed \(seed), \(listing.summary.id): \(Self.differences(match.summary, listing.summary))")
            // The remote listing also carries the `.meta.json` sidecars; the transcripts are the same.
            #expect(
                match.subagentFiles.map { String($0.path.split(separator: "/").last ?? "") }.filter { $0.hasSuffix(".jsonl") }.sorted()
                    == listing.subagentFiles.map(\.lastPathComponent).sorted(), "seed \(seed), subagents of \(listing.summary.id)")
            #expect(match.file.size == listing.summary.fileSize)
            #expect(match.file.modified == listing.summary.modificationTime)
            for age in [0, 61, 600, 3_601] {
                let now = match.file.modified + age
                #expect(
                    match.summary.state(now: now) == listing.summary.state(now: now),
                    "seed \(seed), \(listing.summary.id) at +\(age) s")
            }
        }
        #expect(
            local.contains { $0.summary.subagentCount > 0 } && Set(local.compactMap(\.summary.activity)).count >= 2
                && local.contains { $0.summary.contextUse != nil } && local.contains { ($0.summary.messageCount ?? 0) > 0 },
            "seed \(seed): the generator lost the new fields")
        #expect(
            remote.map(\.summary.lastTimestamp)
                == local.sorted { ($0.summary.lastTimestamp ?? "") > ($1.summary.lastTimestamp ?? "") }.map(\.summary.lastTimestamp))
        // The cached listing that follows must say the same.
        let warm = try await sandbox.withSessions { try await $0.listing(includeUnlisted: true) }.sessions
        let again = try await sandbox.withSessions { try await $0.listing(includeUnlisted: true) }.sessions
        #expect(warm.map(\.summary) == again.map(\.summary))
        #expect(Set(warm.map(\.summary.id)) == Set(remote.map(\.summary.id)))
        for listing in warm {
            #expect(listing.summary == remote.first { $0.id == listing.id }?.summary, "seed \(seed), cached \(listing.id)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aLastLineLongerThanTheTailWindowGivesTheSameDateRemotelyAndLocally(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let id = "5e55a0e1-0000-4000-8000-000000000001"
        let huge = String(repeating: "y", count: 100_000)
        // The tool result's text comes after its timestamp, as Claude Code writes it.
        let last =
            #"{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"\#(id)","timestamp":"2026-03-04T05:06:07.000Z","#
            + #""message":{"role":"user","content":"more"},"toolUseResult":{"stdout":"\#(huge)"}}"#
        try sandbox.writeSession(
            id,
            lines: [
                Records.user("first question", uuid: "u1", parent: nil, session: id, time: "2026-01-01T00:00:00.000Z"),
                Records.assistant("answer", uuid: "a1", parent: "u1", session: id, time: "2026-01-01T00:00:05.000Z"),
                last,
            ])

        let remote = try await sandbox.withSessions(cache: false) { try await $0.listing() }.sessions
        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects).appendingPathComponent("-home-dev-proj"))

        #expect(remote.first?.summary == local.first?.summary)
        // Not the head's first time: the last record's, or (its time lies before the last 64 KiB)
        // the file's modification time, when that line was written.
        #expect((remote.first?.summary.lastTimestamp ?? "") >= "2026-03-04T05:06:07.000Z")
        #expect((local.first?.summary.lastTimestamp ?? "") >= "2026-03-04T05:06:07.000Z")
    }

    @Test(arguments: ServerKind.allCases)
    func aListingWithoutMessageCountsLeavesThemNilAndTheNextCountingListingFillsThemFromTheBox(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let id = "5e55a0e1-0000-4000-8000-000000000002"
        try sandbox.writeSession(
            id,
            lines: [
                Records.user("first question", uuid: "u1", parent: nil, session: id),
                Records.assistant("answer", uuid: "a1", parent: "u1", session: id),
                #"{"type":"custom-title","customTitle":"named","sessionId":"\#(id)"}"#,
            ])
        let quiet = try await sandbox.withSessions(options: SessionListingOptions(countsMessages: false)) { try await $0.listing() }
        #expect(quiet.sessions.first?.summary.messageCount == nil)
        let counted = try await sandbox.withSessions { try await $0.listing() }
        #expect(counted.sessions.first?.summary.messageCount == 2)
        #expect(counted.statistics.filesRead == 1, "the entry without a count was read again")
        let cached = try await sandbox.withSessions { try await $0.listing() }
        #expect(cached.sessions.first?.summary.messageCount == 2 && cached.statistics.cacheHits == 1)
    }

    /// The fields of two summaries that differ, named.
    static func differences(_ lhs: SessionSummary, _ rhs: SessionSummary) -> [String] {
        var result: [String] = []
        func check<T: Equatable>(_ name: String, _ key: KeyPath<SessionSummary, T>) {
            if lhs[keyPath: key] != rhs[keyPath: key] { result.append("\(name): \(lhs[keyPath: key]) ≠ \(rhs[keyPath: key])") }
        }
        check("title", \.title)
        check("titleSource", \.titleSource)
        check("firstPrompt", \.firstPrompt)
        check("cwd", \.cwd)
        check("gitBranch", \.gitBranch)
        check("firstTimestamp", \.firstTimestamp)
        check("lastTimestamp", \.lastTimestamp)
        check("model", \.model)
        check("version", \.version)
        check("tag", \.tag)
        check("isSidechain", \.isSidechain)
        check("fileSize", \.fileSize)
        check("activity", \.activity)
        check("contextUse", \.contextUse)
        check("subagentCount", \.subagentCount)
        check("modificationTime", \.modificationTime)
        check("messageCount", \.messageCount)
        if result.isEmpty, lhs != rhs { result.append("other fields") }
        return result
    }
}
