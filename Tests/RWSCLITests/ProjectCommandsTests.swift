import Foundation
import RWSTestSupport
import Testing

@Suite struct ProjectCommandsTests {
    @Test(arguments: ServerKind.allCases)
    func createListCloneAndDeleteFromTheCommandLine(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (root, flags, home) = (box.workspaceRoot, box.rwsFlags, box.localHome)
        let created = await InProcessRWS.run(["create", "notes", "--git-init"] + flags, home: home)
        #expect(created.status == 0 && created.stdout.hasPrefix("created "), "\(created.stderr)")

        let bare = root + "-source.git"
        try Shell.sh(
            "git init -q --bare '\(bare)' && git clone -q '\(bare)' '\(bare)-work' 2>/dev/null && cd '\(bare)-work' && "
                + "for i in 1 2 3; do echo $i > f$i; git add f$i; git -c user.name=t -c user.email=t@t commit -qm $i; done && git "
                + "push -q origin HEAD")
        let refused = await InProcessRWS.run(["clone", "file://" + bare] + flags, home: home)
        #expect(refused.status == 64 && refused.stderr.contains("local sources are allowed"))
        let cloned = await InProcessRWS.run(
            ["clone", "file://" + bare, "--allow-local", "--name", "app", "--depth", "1"] + flags, home: home)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(cloned.stderr.contains("Receiving objects: 100% (5/5)"), "plain progress lines off a terminal")
        #expect(!cloned.stderr.contains("\r"))

        let listed = await InProcessRWS.run(["projects", "--json"] + flags, home: home)
        let projects = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(projects.map { $0["name"] as? String } == ["app", "notes"])

        let unconfirmed = await InProcessRWS.run(["delete", "app"] + flags, home: home)
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"))
        let dry = await InProcessRWS.run(["delete", "app", "--with-history", "--dry-run"] + flags, home: home)
        #expect(dry.stdout.contains("would remove directory: ") && FileManager.default.fileExists(atPath: root + "/app"))
        let deleted = await InProcessRWS.run(["delete", "app", "--yes"] + flags, home: home)
        #expect(deleted.status == 0 && deleted.stdout.contains("removed directory: "))
        #expect(!FileManager.default.fileExists(atPath: root + "/app"))
    }

    @Test(arguments: ServerKind.allCases)
    func badNamesAreUsageErrorsSayingWhatIsAllowed(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (server, flags, home) = (box.server, box.rwsFlags, box.localHome)
        let outcome = await InProcessRWS.run(["create", "../up"] + flags, home: home)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("letters, digits"))
        let json = await InProcessRWS.run(
            ["projects", "--json", "--workspace-root", "/x"] + server.rwsFlags + [
                "--claude-dir",
                "/nonexistent-rws",
            ], home: home)
        #expect(json.status == 0 && json.stdout.filter { !$0.isWhitespace } == "[]", "\(json.stderr)")
    }
}
