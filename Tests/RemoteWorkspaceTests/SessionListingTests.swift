import Foundation
import RWSTestSupport
import SessionHistory
import Testing

@testable import RemoteWorkspace

@Suite struct SessionListingTests {
    @Test(arguments: ScriptPlace.localAndDefault)
    func listingTheCorpusGivesTheSameSummariesAsTheLocalFiles(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus()
        let listing = try await sandbox.withSessions { try await $0.listing() }
        let remote = listing.sessions
        // Sessions opening with slash commands show no prompt in the first 8 KiB: read up to 64 KiB.
        #expect(listing.statistics.filesWidened > 0)
        var local: [LocalSessionListing] = []
        for project in try FileManager.default.contentsOfDirectory(atPath: sandbox.claudeProjects) {
            local += try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects).appendingPathComponent(project))
        }
        #expect(local.count > 15)
        #expect(Set(remote.map(\.id)) == Set(local.map(\.summary.id)))
        for listing in local {
            let match = remote.first { $0.id == listing.summary.id }
            #expect(match?.summary == listing.summary, "summary of \(listing.summary.id)")
            #expect(
                match?.subagentFiles.filter { $0.path.hasSuffix(".jsonl") }.map {
                    $0.path.split(separator: "/").last.map(String.init) ?? ""
                }.sorted()
                    == listing.subagentFiles.map(\.lastPathComponent).sorted(), "subagents of \(listing.summary.id)")
        }
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func subagentTranscriptsAreAttachedToTheirParentAndNotListed(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["29ccd257", "cb2e607c", "agent-ea02459f", "ef958aa1"])
        let sessions = try await sandbox.withSessions { try await $0.listSessions() }
        #expect(
            sessions.map(\.id).sorted() == [
                "29ccd257-68b1-427f-ae5f-6524b7cb6f20", "cb2e607c-c758-415a-8b45-c49e4631906a", "ef958aa1-0e93-49f0-bb71-150f63befcd1",
            ])
        let byId = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0.subagentFiles.map(\.path)) })
        #expect(
            byId["29ccd257-68b1-427f-ae5f-6524b7cb6f20"]?.map {
                $0.hasSuffix("/29ccd257-68b1-427f-ae5f-6524b7cb6f20/subagents/agent-a2271d1.jsonl")
            } == [true])
        #expect(
            byId["cb2e607c-c758-415a-8b45-c49e4631906a"]?.map {
                $0.hasSuffix("/-Users-dain-workspace-coderabbit-review-helper/agent-ea02459f.jsonl")
            } == [true])
        #expect(
            byId["ef958aa1-0e93-49f0-bb71-150f63befcd1"]?.map { String($0.split(separator: "/").last!) }
                == ["agent-a4ca7529859c158c2.jsonl", "agent-a4ca7529859c158c2.meta.json"])
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aProjectCanBeNamedByFolderOrPath(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let session = "11111111-0000-0000-0000-000000000001"
        try sandbox.writeSession(
            session, folder: "-home-dev-proj", lines: [Records.user("hello", uuid: "u1", parent: nil, session: session)])
        try sandbox.writeSession(
            "22222222-0000-0000-0000-000000000002", folder: "-home-dev-other",
            lines: [Records.user("other", uuid: "u1", parent: nil, session: "22222222-0000-0000-0000-000000000002")])
        try await sandbox.withSessions { sessions throws in
            let byFolder = try await sessions.listSessions(project: "-home-dev-proj")
            let byPath = try await sessions.listSessions(project: "/home/dev/proj")
            let all = try await sessions.listSessions()
            #expect(byFolder.map(\.id) == [session])
            #expect(byPath.map(\.id) == [session])
            #expect(all.count == 2)
            await #expect(throws: RemoteSessionError.self) { try await sessions.listSessions(project: "-x;rm") }
        }
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aListingWithoutCacheReadsEveryFileAndTheWarmOneReadsNone(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["daaain"])
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            #expect(!cold.statistics.cacheLoaded)
            #expect(cold.statistics.filesRead == cold.statistics.filesSeen)
            let warm = try await sessions.listing()
            #expect(warm.statistics.cacheLoaded)
            #expect(warm.statistics.commands == 1)
            #expect(warm.statistics.cacheHits == warm.statistics.filesSeen)
            #expect(warm.statistics.filesRead + warm.statistics.filesGrown + warm.statistics.filesWidened == 0)
            #expect(warm.sessions == cold.sessions)
            #expect(warm.statistics.bytesTransferred < cold.statistics.bytesTransferred / 20)
        }
    }

    /// Claude Code's picker takes a rename from its 64 KiB windows; the listing's first 8 KiB
    /// tail can hold a later `last-prompt` instead, so a file holding a title record is read wide.
    @Test(arguments: ScriptPlace.localAndDefault)
    func aRenameBeyondTheFirstTailWindowIsStillTheTitleAndOneBeyondClaudeCodesWindowIsNot(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let near = "33333333-0000-0000-0000-000000000003"
        let far = "44444444-0000-0000-0000-000000000004"
        // `turns` turns of ~2.2 KB before the rename and as many after it.
        func lines(_ session: String, turns: Int) -> [String] {
            var lines = [Records.user("Start here", uuid: "u0", parent: nil, session: session)]
            var parent = "u0"
            for turn in 1...(2 * turns) {
                if turn == turns + 1 { lines.append(#"{"type":"custom-title","customTitle":"Greeting work","sessionId":"\#(session)"}"#) }
                let filler = String(repeating: "words ", count: 150)
                lines.append(Records.user("Prompt \(turn) \(filler)", uuid: "u\(turn)", parent: parent, session: session))
                lines.append(Records.assistant("Answer \(turn) \(filler)", uuid: "a\(turn)", parent: "u\(turn)", session: session))
                parent = "a\(turn)"
            }
            lines.append(#"{"type":"last-prompt","lastPrompt":"Once more","sessionId":"\#(session)"}"#)
            return lines
        }
        let nearPath = try sandbox.writeSession(near, lines: lines(near, turns: 6))
        let farPath = try sandbox.writeSession(far, lines: lines(far, turns: 40))
        let sizes = try [nearPath, farPath].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        #expect(sizes[0] > 8_192 * 3 && sizes[0] < 65_536 && sizes[1] > 65_536 * 2 + 8_192, "sizes \(sizes)")

        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        let titles = Dictionary(uniqueKeysWithValues: local.map { ($0.summary.id, $0.summary.title) })
        #expect(titles[near] == "Greeting work")
        #expect(titles[far] == "Once more")
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            #expect(cold.statistics.filesWidened == 1, "the far rename lies beyond both wide windows: nothing to widen for")
            for listing in local {
                #expect(cold.sessions.first { $0.id == listing.summary.id }?.summary == listing.summary, "summary of \(listing.summary.id)")
            }
            // Appended turns after the rename: the cached wide tail still reaches the title.
            let more = Records.user("Later \(String(repeating: "x", count: 3_000))", uuid: "u99", parent: "a12", session: near)
            try TestBox.append([more], to: nearPath)
            let grown = try await sessions.listing()
            #expect(grown.sessions.first { $0.id == near }?.summary.title == "Greeting work")
        }
        // Not counting messages still looks for the rename.
        let uncounted = try await sandbox.withSessions(cache: false, options: SessionListingOptions(countsMessages: false)) {
            try await $0.listing()
        }
        #expect(uncounted.sessions.first { $0.id == near }?.summary.title == "Greeting work")
    }

    /// A `summary` record that only a widened head shows titles the session it names (another
    /// file of the project): that session is summarised again once the wide window is read.
    @Test(arguments: ScriptPlace.localAndDefault)
    func aSummaryRecordOnlyAWideHeadShowsTitlesTheSessionItNames(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let namer = "66666666-0000-0000-0000-000000000001"
        let named = "66666666-0000-0000-0000-000000000002"
        // ~12 KB of records that are no prompt, so the first 8 KiB leave the namer's head unsure.
        let snapshot = #"{"type":"file-history-snapshot","messageId":"x","snapshot":{"blob":"\#(String(repeating: "b", count: 1_000))"}}"#
        _ = try sandbox.writeSession(
            namer,
            lines: Array(repeating: snapshot, count: 12) + [
                #"{"type":"summary","summary":"Named by the other","leafUuid":"n-u1"}"#,
                Records.user("The namer's prompt", uuid: "m-u1", parent: nil, session: namer),
            ])
        _ = try sandbox.writeSession(
            named,
            lines: [
                Records.user("The named one's prompt", uuid: "n-u1", parent: nil, session: named),
                Records.assistant("Done", uuid: "n-a1", parent: "n-u1", session: named),
            ])

        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        #expect(local.first { $0.summary.id == named }?.summary.title == "Named by the other")
        let listing = try await sandbox.withSessions(cache: false) { try await $0.listing() }
        #expect(listing.statistics.filesWidened >= 1)
        for reference in local {
            #expect(listing.sessions.first { $0.id == reference.summary.id }?.summary == reference.summary, "\(reference.summary.id)")
        }
    }

    /// A long count: the box counts messages while the client widens windows on another channel,
    /// and the listing script ends only once the client is done, since dropbear 2022.83 drops the
    /// connection when a channel's process exits while another channel is being set up
    /// (mkj/dropbear#321: this failed about one listing in five when the script ended on its own).
    /// A short one: the client widens once the script has ended.
    @Test(arguments: ServerKind.allCases, [0, SessionListingOptions().countsBesideWideningAbove])
    func listingsThatWidenWhileTheBoxCountsKeepTheConnection(kind: ServerKind, holdAbove: Int) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let id = "66666666-0000-0000-0000-000000000006"
        // The first prompt lies beyond the first 8 KiB: every cold listing widens the head.
        let progress = (0..<30).map { _ in #"{"type":"progress","data":"\#(String(repeating: "p", count: 400))"}"# }
        try sandbox.writeSession(
            id, lines: progress + [Records.user("Find the slow test", uuid: "u1", parent: nil, session: id)])
        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        var options = SessionListingOptions()
        options.countsBesideWideningAbove = holdAbove
        try await sandbox.withSessions(cache: false, options: options) { sessions in
            for round in 0..<25 {
                let listing = try await sessions.listing()
                #expect(listing.statistics.filesWidened == 1, "round \(round)")
                #expect(listing.sessions.map(\.summary) == local.map(\.summary), "round \(round)")
            }
        }
    }

    /// The box's lists of new and grown files are shell code its awk pass writes: a project
    /// folder named with quotes, spaces and `$(...)` is listed, and after growth read from its
    /// old size, as the local listing says.
    @Test(arguments: ScriptPlace.localAndDefault)
    func aProjectNamedWithQuotesAndShellSyntaxIsListedNewAndGrown(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let project = "-it's a $(touch pwned) `x`"
        let id = "55555555-0000-0000-0000-000000000005"
        let filler = String(repeating: "words ", count: 2_000)
        let path = try sandbox.writeSession(
            id, folder: project, lines: [Records.user("First \(filler)", uuid: "u1", parent: nil, session: id)])
        let folder = URL(fileURLWithPath: sandbox.claudeProjects).appendingPathComponent(project)
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            #expect(cold.sessions.map(\.summary) == (try LocalProject.listSessions(in: folder)).map(\.summary))
            try TestBox.append([Records.user("Second", uuid: "u2", parent: "u1", session: id)], to: path)
            let grown = try await sessions.listing()
            #expect(grown.statistics.filesGrown == 1)
            #expect(grown.sessions.map(\.summary) == (try LocalProject.listSessions(in: folder)).map(\.summary))
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.claudeProjects + "/" + project + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.claudeProjects + "/pwned"))
    }
}
