import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// Session files written by other tools, listed over SSH and locally: both listings say the same,
/// and what they say is what the file holds.
@Suite struct SessionListingForeignWriterTests {
    /// The same record with JSON whitespace after every colon and comma (`"type": "user"`), as
    /// pretty-printing writers put it. The records' texts hold no quotes, so only structure changes.
    static func spaced(_ line: String) -> String {
        line.replacingOccurrences(of: "\":", with: "\" :\t ").replacingOccurrences(of: ",\"", with: ", \"")
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func whitespaceAroundColonsChangesNoCountTitlePathOrState(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let compact = "55555555-0000-0000-0000-000000000005"
        let spacedId = "55555555-0000-0000-0000-000000000006"
        // ~2.2 KB turns around a rename, so the title is past the first 8 KiB windows: found only
        // when the box's title search matches the spaced record.
        func lines(_ session: String) -> [String] {
            var lines = [Records.user("Start here", uuid: "u0", parent: nil, session: session)]
            var parent = "u0"
            for turn in 1...12 {
                if turn == 7 { lines.append(#"{"type":"custom-title","customTitle":"Renamed work","sessionId":"\#(session)"}"#) }
                let filler = String(repeating: "words ", count: 150)
                lines.append(Records.user("Prompt \(turn) \(filler)", uuid: "u\(turn)", parent: parent, session: session))
                lines.append(Records.assistant("Answer \(turn) \(filler)", uuid: "a\(turn)", parent: "u\(turn)", session: session))
                parent = "a\(turn)"
            }
            return lines
        }
        _ = try sandbox.writeSession(compact, lines: lines(compact))
        _ = try sandbox.writeSession(spacedId, lines: lines(spacedId).map(Self.spaced))

        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        let byId = Dictionary(uniqueKeysWithValues: local.map { ($0.summary.id, $0.summary) })
        let reference = try #require(byId[compact])
        let spaced = try #require(byId[spacedId])
        #expect(reference.messageCount == 25)
        #expect(reference.title == "Renamed work")
        #expect(spaced.messageCount == reference.messageCount)
        #expect(spaced.title == reference.title)
        #expect(spaced.cwd == "/home/dev/proj")
        #expect(spaced.lastTimestamp == reference.lastTimestamp)
        #expect(spaced.activity == reference.activity)

        let remote = try await sandbox.withSessions { try await $0.listSessions() }
        for listing in local {
            #expect(remote.first { $0.id == listing.summary.id }?.summary == listing.summary, "summary of \(listing.summary.id)")
        }
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aFirstLineLargerThanTheWindowsStillListsTheSessionWithItsPathAndCount(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let id = "66666666-0000-0000-0000-000000000006"
        let pasted = String(repeating: "pasted text ", count: 12_000)
        _ = try sandbox.writeSession(
            id,
            lines: [
                Self.spaced(Records.user(pasted, uuid: "u1", parent: nil, session: id)),
                Records.assistant("Read it", uuid: "a1", parent: "u1", session: id),
                Records.user("Now shorten it", uuid: "u2", parent: "a1", session: id, time: "2026-01-02T10:01:00.000Z"),
            ])

        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        let summary = try #require(local.first { $0.summary.id == id }?.summary)
        #expect(summary.cwd == "/home/dev/proj")
        #expect(summary.messageCount == 3)
        #expect(summary.title?.hasPrefix("pasted text pasted text") == true, "\(summary)")
        let remote = try await sandbox.withSessions { try await $0.listSessions() }
        #expect(remote.first { $0.id == id }?.summary == summary)
    }
}
