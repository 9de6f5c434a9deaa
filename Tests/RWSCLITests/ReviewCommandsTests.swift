import Foundation
import RWSTestSupport
import Testing

@Suite struct ReviewCommandsTests {
    /// A box on the shared server of `kind` whose workspace root holds project `app`: one commit,
    /// then a changed line, a new file with a newline in its name and a staged deletion.
    static func reviewBox(_ kind: ServerKind = .default) throws -> TestBox {
        let box = try TestBox(kind)
        let root = box.workspaceRoot
        try Shell.sh(
            """
            set -e; mkdir -p '\(root)'; cd '\(root)'; git init -q -b main app; cd app
            printf 'one\\ntwo\\n' > a.txt; echo bye > gone.txt; git add -A; git -c user.name=t -c user.email=t@t commit -qm one
            printf 'one\\nTWO\\n' > a.txt; printf 'n\\n' > "$(printf 'new\\nline')"; git rm -q gone.txt
            """)
        return box
    }

    @Test(arguments: ServerKind.allCases)
    func statusAndDiffOnAPipeArePlainTextWithEveryNameOnOneLine(kind: ServerKind) async throws {
        let box = try Self.reviewBox(kind)
        defer { box.remove() }
        let (flags, home) = (box.rwsFlags, box.localHome)
        let status = await InProcessRWS.run(["status", "app"] + flags, home: home)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("On main\n"))
        #expect(status.stdout.contains("Staged:\n  D  gone.txt\n") && status.stdout.contains("Not staged:\n  M  a.txt\n"))
        #expect(status.stdout.contains("Untracked:\n  ?  new\\nline\n"), "a newline in a name is shown, not obeyed")
        #expect(!status.stdout.contains("\u{1B}["), "no colour on a pipe")

        let diff = await InProcessRWS.run(["diff", "app"] + flags, home: home)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(
            diff.stdout.contains("modified a.txt (mode 100644, +1 -1)") || diff.stdout.contains("modified a.txt (+1 -1)"), "\(diff.stdout)")
        #expect(diff.stdout.contains("    2       -two\n") && diff.stdout.contains("          2 +TWO\n"), "\(diff.stdout)")
        #expect(diff.stdout.contains("added new\\nline"))

        let stat = await InProcessRWS.run(["diff", "app", "--staged", "--stat"] + flags, home: home)
        #expect(
            stat.stdout.contains("gone.txt") && stat.stdout.contains("1 file changed, 0 insertions(+), 1 deletions(-)"), "\(stat.stdout)")
    }

    @Test func jsonCarriesTheTypedDiffAndBadInputIsAUsageError() async throws {
        let box = try Self.reviewBox()
        defer { box.remove() }
        let (flags, home) = (box.rwsFlags, box.localHome)
        let diff = await InProcessRWS.run(["diff", "app", "a.txt", "--json"] + flags, home: home)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["a.txt"])
        #expect(files[0]["added"] as? Int == 1 && files[0]["change"] as? String == "modified")
        let lines = (files[0]["hunks"] as? [[String: Any]])?.first?["lines"] as? [[String: Any]] ?? []
        #expect(lines.contains { $0["kind"] as? String == "added" && $0["text"] as? String == "TWO" && $0["newLine"] as? Int == 2 })

        let option = await InProcessRWS.run(["diff", "app", "--since=--output=/tmp/x"] + flags, home: home)
        #expect(option.status == 64 && option.stderr.contains("starts with '-'"), "\(option.stderr)")
        let missing = await InProcessRWS.run(["status", "nope"] + flags, home: home)
        #expect(missing.status == 66 && missing.stderr.contains("no such directory on the box"), "\(missing.stderr)")
        let none = await InProcessRWS.run(["status"] + flags, home: home)
        #expect(none.status == 64 && none.stderr.contains("name a project"))
    }

    /// The acts a user takes after reviewing, each over the wire: stage, unstage, discard (asked
    /// for on a terminal, --force elsewhere), commit, push to a remote on the box.
    @Test(arguments: ServerKind.allCases)
    func stageUnstageDiscardCommitAndPushChangeTheRepositoryOnTheBox(kind: ServerKind) async throws {
        let box = try Self.reviewBox(kind)
        defer { box.remove() }
        let (flags, home, root) = (box.rwsFlags, box.localHome, box.workspaceRoot)
        let stage = await InProcessRWS.run(["stage", "app", "a.txt", "new\nline"] + flags, home: home)
        #expect(stage.status == 0 && stage.stdout == "staged 2 paths\n", "\(stage.stderr)")
        let unstage = await InProcessRWS.run(["unstage", "app", "new\nline"] + flags, home: home)
        #expect(unstage.status == 0, "\(unstage.stderr)")
        let status = await InProcessRWS.run(["status", "app"] + flags, home: home).stdout
        #expect(status.contains("Staged:\n  M  a.txt\n  D  gone.txt\n") && status.contains("Untracked:\n  ?  new\\nline\n"), "\(status)")

        let unasked = await InProcessRWS.run(["discard", "app", "new\nline"] + flags, home: home)
        #expect(unasked.status == 64 && unasked.stderr.contains("--force"), "\(unasked.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/app/new\nline"), "nothing discarded without --force")
        let discarded = await InProcessRWS.run(["discard", "app", "new\nline", "--force"] + flags, home: home)
        #expect(discarded.status == 0, "\(discarded.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/app/new\nline"))

        try Shell.sh("cd '\(root)/app' && git config user.name rws && git config user.email rws@example.invalid")
        let commit = await InProcessRWS.run(["commit", "app", "-m", "Fix $(touch pwned) `two`"] + flags, home: home)
        #expect(commit.status == 0 && commit.stdout.hasPrefix("committed "), "\(commit.stderr)")
        #expect(try Shell.sh("git -C '\(root)/app' log -1 --format=%s") == "Fix $(touch pwned) `two`\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/app/pwned"))
        let again = await InProcessRWS.run(["commit", "app", "-m", "empty"] + flags, home: home)
        #expect(again.status == 1 && again.stderr.contains("nothing"), "\(again.stderr)")

        try Shell.sh("git init -q --bare '\(root)/remote.git'")
        let push = await InProcessRWS.run(["push", "app", root + "/remote.git", "main"] + flags, home: home)
        #expect(push.status == 0 && push.stdout == "pushed\n", "\(push.stderr)")
        #expect(push.stderr.contains("Writing objects"), "git's progress, a line per phase on a pipe: \(push.stderr)")
        #expect(try Shell.sh("git -C '\(root)/remote.git' log -1 --format=%s main") == "Fix $(touch pwned) `two`\n")
    }
}
