import Foundation
import RWSTestSupport
import Testing

/// A full or locked box: a clone onto a full disk, a rename in a full Claude folder, an export
/// onto a full disk here, the hooks into a full Claude folder, and a read-only workspace root.
/// Each says what happened and what to do, and leaves nothing half-made; files already there
/// stay byte for byte. OpenSSH only: the dropbear test server runs in a mount namespace of its
/// own, where the small disk is not mounted.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FullBoxTests {
    static let id = "5ea50000-0000-4000-8000-0000000000f1"

    static func sha256(_ path: String) throws -> String {
        String(try Shell.run("/usr/bin/sha256sum", [path]).prefix(64))
    }

    /// A session of one prompt in `claude`'s projects, 4,096 bytes: a whole page of a tmpfs, so
    /// that on a full one any append needs a page more.
    static func writeSession(in claude: String) throws -> String {
        let folder = claude + "/projects/-home-dev-proj"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let head =
            #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(id)","cwd":"/home/dev/proj","#
            + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"Fill the disk"#
        let tail = #""}}"# + "\n"
        let line = head + String(repeating: ".", count: 4096 - head.utf8.count - tail.utf8.count) + tail
        try Data(line.utf8).write(to: URL(fileURLWithPath: folder + "/\(id).jsonl"))
        return folder + "/\(id).jsonl"
    }

    @Test func aCloneOntoAFullDiskSaysSoAndLeavesNoPartialProject() async throws {
        let box = try TestBox(ownServer: .openssh)
        defer { box.remove() }
        let disk = try SmallDisk()
        let bare = box.root + "/source.git"
        try Shell.sh(
            "git init -q '\(box.root)/work' && cd '\(box.root)/work' && head -c 3000000 /dev/urandom > big.bin"
                + " && git add . && git -c user.name=t -c user.email=t@t commit -qm big && git clone -q --bare . '\(bare)'")
        let flags = box.server.rwsFlags + ["--workspace-root", disk.path, "--claude-dir", box.claudeDirectory, "--allow-local"]
        let clone = try await box.rwsBinary(["clone", "file://" + bare, "--name", "app"] + flags)
        #expect(clone.status == 1, "\(clone)")
        #expect(clone.stderr.contains("rws: no space left on the box for \(disk.path)/app: free some space"), "\(clone.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [], "a partial project was left")
    }

    @Test func aRenameInAFullClaudeFolderSaysSoAndLeavesTheSessionAsItWas() async throws {
        let box = try TestBox(ownServer: .openssh)
        defer { box.remove() }
        let disk = try SmallDisk()
        let file = try Self.writeSession(in: disk.path)
        disk.fill()
        let before = try Self.sha256(file)
        let rename = try await box.rwsBinary(["rename"] + box.server.rwsFlags + ["--claude-dir", disk.path, Self.id, "A new title"])
        #expect(rename.status == 1, "\(rename)")
        #expect(
            rename.stderr == "rws: no space left on the box for \(file): free some space on the box (df -h shows where) and try "
                + "again; the session is as it was\n", "\(rename.stderr)")
        #expect(try Self.sha256(file) == before, "the session file changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/projects/-home-dev-proj") == ["\(Self.id).jsonl"])
    }

    @Test func anExportOntoAFullDiskHereSaysSoAndLeavesNoPartialFile() async throws {
        let box = try TestBox(ownServer: .openssh)
        defer { box.remove() }
        _ = try Self.writeSession(in: box.claudeDirectory)
        let disk = try SmallDisk()
        disk.fill()
        let export = try await box.rwsBinary(
            ["export"] + box.server.rwsFlags + [Self.id, "-o", disk.path + "/session.md"])
        #expect(export.status == 1, "\(export)")
        #expect(export.stderr.hasPrefix("rws: no space left on this machine for \(disk.path)/session.md: free some space"), "\(export)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["filler"])
    }

    @Test func hooksIntoAFullClaudeFolderSayWhyAndLeaveTheSettingsAsTheyWere() async throws {
        let box = try TestBox(ownServer: .openssh)
        defer { box.remove() }
        let disk = try SmallDisk()
        let settings = disk.path + "/settings.json"
        try Data(#"{"env":{"KEEP":"me"}}"#.utf8).write(to: URL(fileURLWithPath: settings))
        disk.fill()
        let before = try Self.sha256(settings)
        let install = try await box.rwsBinary(["hooks", "install"] + box.server.rwsFlags + ["--claude-dir", disk.path])
        #expect(install.status == 1, "\(install)")
        #expect(install.stderr.hasPrefix("rws: no space left on the box for \(settings): free some space"), "\(install.stderr)")
        #expect(try Self.sha256(settings) == before, "the settings changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == ["filler", "settings.json"])
    }

    /// Claude Code itself says nothing when it cannot write its session: rws looks once the turn
    /// ended. Beside it, an `ask` on a box with room says nothing of the kind.
    @Test func anAskIntoAFullClaudeFolderSaysTheTurnMayNotBeSaved() async throws {
        let box = try TestBox(.openssh, claude: [["text": "The answer is 42."], ["text": "Still 42."]])
        defer { box.remove() }
        let roomy = await box.rws(["ask", "app", "What is the answer?", "--permission-mode", "default"])
        #expect(roomy.status == 0 && !roomy.stderr.contains("no space"), "\(roomy.stderr)")
        let disk = try SmallDisk()
        try Shell.sh(
            "cp -a '\(box.claudeDirectory)/.' '\(disk.path)/' && rm -rf '\(box.claudeDirectory)'"
                + " && ln -s '\(disk.path)' '\(box.claudeDirectory)'")
        disk.fill()
        let full = await box.rws(["ask", "app", "And now?", "--permission-mode", "default"])
        #expect(full.status == 1, "\(full)")
        #expect(full.stdout == "Still 42.\n")
        #expect(
            full.stderr.contains("rws: no space left on the box for ") && full.stderr.contains("Claude Code may not have saved this turn")
                && full.stderr.contains("free some space on the box (df -h shows where) before you resume"), "\(full.stderr)")
        #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
    }

    /// As root (the test container) only an immutable folder is read-only.
    @Test func aReadOnlyWorkspaceRootIsNamedAndNothingIsMadeInIt() async throws {
        let box = try TestBox(ownServer: .openssh)
        defer { box.remove() }
        try FileManager.default.createDirectory(atPath: box.workspaceRoot, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: box.workspaceRoot)
        let asRoot = getuid() == 0
        if asRoot { try Shell.run("/usr/bin/chattr", ["+i", box.workspaceRoot]) }
        defer { if asRoot { _ = try? Shell.run("/usr/bin/chattr", ["-i", box.workspaceRoot]) } }
        let bare = box.root + "/source.git"
        try Shell.sh("git init -q --bare '\(bare)'")
        let create = try await box.rwsBinary(["create", "notes"] + box.rwsFlags)
        let clone = try await box.rwsBinary(["clone", "file://" + bare, "--allow-local", "--name", "app"] + box.rwsFlags)
        for outcome in [create, clone] {
            #expect(outcome.status == 77, "\(outcome)")
            #expect(
                outcome.stderr.hasPrefix("rws: cannot make a project in the workspace root \(box.workspaceRoot): the login may not write")
                    && outcome.stderr.split(separator: "\n").count == 1,
                "\(outcome.stderr)")
        }
        #expect(box.workspaceEntries() == [])
    }
}
