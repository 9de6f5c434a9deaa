import Foundation
import RWSTestSupport
import Testing

/// `rws search` and `rws history --at`, run as a person runs them, against a session on the test box.
@Suite struct SearchCommandTests {
    @Test(arguments: ServerKind.allCases)
    func searchShowsEachMatchUnderItsSessionAndHistoryOpensThere(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let found = await box.rws(["search", "B.TXT"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(
            found.stdout == "77777777  2026-01-02 10:00  List the files  (-home-dev-proj)\n"
                + "  3     tool_result 01-02 10:00  a.txt b.txt\n\n1 session, 1 message\n"
                + "open one at a match: rws history ID --at UUID (uuids with --json)\n")

        let json = await box.rws(["search", "--json", "files"])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let session = try #require((decoded["sessions"] as? [[String: Any]])?.first)
        let hit = try #require((session["hits"] as? [[String: Any]])?.first)
        #expect(session["id"] as? String == SessionCommandsTests.id && session["title"] as? String == "List the files")
        #expect(hit["uuid"] as? String == "u1" && hit["role"] as? String == "user" && hit["match"] as? String == "files")
        #expect(hit["before"] as? String == "List the " && decoded["truncated"] as? Bool == false)

        let history = await box.rws(["history", SessionCommandsTests.id, "--at", "u2"])
        #expect(history.status == 0, "\(history.stderr)")
        // The title, then the response whose tool result is record u2; the prompt before it is left out.
        #expect(history.stdout.hasPrefix("# List the files\n\n[2026-01-02 10:00:05] Claude"), "\(history.stdout)")
        #expect(history.stdout.contains("▸ Bash(ls)") && !history.stdout.contains("] You"), "\(history.stdout)")
        let missing = await box.rws(["history", SessionCommandsTests.id, "--at", "nosuch"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("has no message with record nosuch"), "\(missing.stderr)")
    }

    @Test func nothingFoundExits1AndABadExpressionOrDateIsAUsageError() async throws {
        let box = try SessionCommandsTests.sessionBox()
        defer { box.remove() }
        let none = await box.rws(["search", "no such words anywhere"])
        #expect(none.status == 1 && none.stdout == "no matches\n")
        let bad = await box.rws(["search", "--regex", "(unclosed"])
        #expect(bad.status == 64 && bad.stderr.contains("cannot search for \"(unclosed\": the box's grep says: "), "\(bad.stderr)")
        let date = await box.rws(["search", "--since", "yesterday", "ls"])
        #expect(date.status == 64 && date.stderr.contains("--since yesterday: give a date"), "\(date.stderr)")
        let old = await box.rws(["search", "--since", "2d", "files"])
        #expect(old.status == 1, "the session's file was written now but its records in January: \(old.stdout)")
        let json = await box.rws(["search", "--json", "--regex", "(unclosed"])
        #expect(json.status == 64 && json.stdout.contains("\"exitCode\""), "\(json.stdout)")
    }

    @Test func theLocalSearchOfTheSameFolderPrintsTheSame() async throws {
        let box = try SessionCommandsTests.sessionBox()
        defer { box.remove() }
        let remote = await box.rws(["search", "txt"])
        let local = await InProcessRWS.run(["search", "--local", box.claudeProjects, "txt"], home: box.localHome)
        #expect(remote.status == 0 && local.status == 0, "\(local.stderr)")
        #expect(local.stdout == remote.stdout)
    }
}
