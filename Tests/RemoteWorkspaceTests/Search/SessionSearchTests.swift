import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// `RemoteSessions.search`: one remote grep over every session, the matches shown as a person
/// reads them, on OpenSSH and dropbear.
@Suite struct SessionSearchTests {
    /// Lines as writers other than Claude Code store them: `\uXXXX` for non-ASCII, escaped
    /// quotes and newlines, `\/`, spaces after colons.
    static let foreignLines = [
        #"{"type": "user", "uuid": "u-1", "sessionId": "s-foreign", "cwd": "/home/dev/naïve", "#
            + #""timestamp": "2026-03-01T10:00:00.000Z", "message": {"role": "user", "#
            + #""content": "Make the caf\u00e9 page say \"Bonjour\"\nthen run npm test"}}"#,
        #"{"type": "assistant", "uuid": "a-1", "parentUuid": "u-1", "sessionId": "s-foreign", "#
            + #""timestamp": "2026-03-01T10:00:05.000Z", "message": {"id": "m1", "role": "assistant", "content": "#
            + #"[{"type": "text", "text": "Done: see src\/cafe.html, \u00c9T\u00c9 edition \ud83d\ude80"}]}}"#,
    ]

    @Test(arguments: ScriptPlace.allCases)
    func typedTextFindsWhatWritersStoredEscaped(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.writeSession("s-foreign", lines: Self.foreignLines)

        for (query, line, match) in [
            ("café page", 1, "café page"), ("say \"Bonjour\"\nthen", 1, "say \"Bonjour\"\nthen"), ("src/cafe", 2, "src/cafe"),
            ("été", 2, "ÉTÉ"), ("CAFÉ", 1, "café"), ("🚀", 2, "🚀"),
        ] {
            let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text(query))) }
            #expect(found.hits.map(\.line) == [line], "\(place): \(query)")
            #expect(found.hits.first?.match == match, "\(place): \(query)")
            #expect(found.sessions.first?.id == "s-foreign")
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func idsPathsKeysAndTimesAreNotConversationText(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.writeSession("s-foreign", lines: Self.foreignLines)

        for query in ["naïve", "s-foreign", "2026-03-01", "assistant", "content", "u-1", "parentUuid"] {
            let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text(query))) }
            #expect(found.hits.isEmpty, "\(place): \(query) found \(found.hits)")
        }
        let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("npm TEST"))) }
        let hit = try #require(found.hits.first)
        #expect((hit.role, hit.uuid, hit.timestamp, hit.key) == ("user", "u-1", "2026-03-01T10:00:00.000Z", "content"))
        #expect(hit.before.hasSuffix("\"Bonjour\"\nthen run ") && hit.after == "")
    }

    @Test(arguments: ScriptPlace.allCases)
    func newestSessionsComeFirstAndTheLimitsSayTheyCut(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        for number in 0..<5 {
            let path = try sandbox.writeSession(
                "s-\(number)", folder: "-home-dev-p\(number % 2)",
                lines: (1...3).map { Records.user("deploy step \($0)", uuid: "u\(number)-\($0)", parent: nil, session: "s-\(number)") })
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 100)], ofItemAtPath: path)
        }

        let all = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("deploy"))) }
        #expect(all.sessions.map(\.id) == ["s-4", "s-3", "s-2", "s-1", "s-0"])
        #expect(all.hits.count == 15 && !all.isTruncated && all.matchedFileCount == 5)
        #expect(all.sessions[0].summary.title == "deploy step 1")

        let cut = try await sandbox.withSessions {
            try await $0.search(SessionSearchQuery(.text("deploy"), limits: SessionSearchLimits(files: 2, recordsPerFile: 2)))
        }
        #expect(cut.sessions.map(\.id) == ["s-4", "s-3"] && cut.hits.count == 4 && cut.isTruncated && cut.matchedFileCount == 5)

        let recent = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("deploy"), since: 1_700_000_250)) }
        #expect(recent.sessions.map(\.id) == ["s-4", "s-3"])
        let project = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("deploy"), project: "-home-dev-p1")) }
        #expect(project.sessions.map(\.id) == ["s-3", "s-1"])
    }

    @Test(arguments: ScriptPlace.allCases)
    func anExpressionMatchesTheStoredTextAndABadOneSaysWhatGrepSaid(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.writeSession("s-foreign", lines: Self.foreignLines)

        let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.regex("caf(e|\\\\u00e9) page"))) }
        #expect(found.hits.map(\.line) == [1])
        await #expect {
            try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.regex("(unclosed"))) }
        } throws: { error in
            guard case RemoteSessionError.invalidSearch(let query, let reason) = error else { return false }
            return query == "(unclosed" && reason.hasPrefix("the box's grep says: ")
        }
        await #expect(throws: RemoteSessionError.invalidSearch("", reason: "the text to search for is empty")) {
            try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text(""))) }
        }
    }

    /// This machine's search of the same files says what the box's says (one query: the local
    /// listing behind its titles reads whole files).
    @Test func theLocalSearchOfTheSameFilesSaysWhatTheBoxSays() async throws {
        let sandbox = try TestBox()
        defer { sandbox.remove() }
        try sandbox.layOutCorpus()

        let remote = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("permission"))) }
        let local = try await RemoteSessions.searchLocally(SessionSearchQuery(.text("permission")), folders: [sandbox.claudeProjects])
        #expect(remote.hits == local.hits && remote.hits.count > 20, "\(remote.hits.count) hits on the box, \(local.hits.count) here")
        #expect(remote.sessions.map(\.id) == local.sessions.map(\.id))
        #expect(remote.sessions.map(\.summary.title) == local.sessions.map(\.summary.title))
        #expect(remote.hits.contains { $0.subagentFile != nil })
    }

    /// Every corpus session is found by words of its own text, titled as `rws sessions` titles it.
    @Test(arguments: ScriptPlace.allCases)
    func theCorpusIsFoundByItsOwnWordsTitledAsTheListingTitlesIt(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus()

        for query in ["permission", "README", "function", "test", "TODO", "FÉVR", "npm run"] {
            let remote = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text(query))) }
            #expect(!remote.hits.isEmpty, "\(place): \(query)")
            for hit in remote.hits { #expect(hit.match.lowercased() == query.lowercased(), "\(place): \(hit)") }
        }
        let common = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("the"))) }
        let listed = try await sandbox.withSessions { try await $0.listing(includeUnlisted: true) }.sessions
        #expect(common.sessions.count >= 10)
        for session in common.sessions {
            let listing = listed.first { $0.id == session.id }
            #expect(session.summary.title == listing?.summary.title, "\(place): \(session.id) \(session.file.path)")
        }
    }
}
