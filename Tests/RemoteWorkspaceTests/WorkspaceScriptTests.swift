import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// Every script RemoteWorkspace runs on the box is a constant body with positional arguments: it
/// passes shellcheck, declares its exit statuses, and behaves the same under dash, bash and
/// BusyBox sh, whatever bytes its arguments hold.
@Suite struct WorkspaceScriptTests {
    private static let hostile = ScriptCase.hostile

    @Test func everyScriptPassesShellcheck() throws {
        #expect(try ScriptShells.shellcheck(RemoteScript.workspaceScripts) == [])
    }

    @Test func everyExitStatusInABodyIsDeclaredAndEveryDeclaredOneIsUsed() {
        #expect(ScriptShells.exitMismatches(RemoteScript.workspaceScripts) == [])
    }

    @Test func everyScriptHasACaseRunUnderEveryShell() {
        #expect(ScriptCase.uncovered(RemoteScript.workspaceScripts, by: Self.cases) == [])
    }

    @Test(arguments: cases)
    func theScriptBehavesTheSameUnderDashBashAndBusyBox(_ scriptCase: ScriptCase) throws {
        let problems = try scriptCase.runUnderEveryShell()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A session file in project folder `p` of `claude/projects`, and a workspace root `ws` with the hostile entry.
    private static let sessions = #"""
        mkdir -p claude/projects/p ws/"$2"
        printf '{"type":"user","cwd":"/x"}\n{"type":"assistant"}\n' > claude/projects/p/s.jsonl
        touch -d @1700000000 claude/projects/p/s.jsonl
        """#

    /// A git repository named with the hostile word, holding an untracked file of that name.
    private static let repository = #"""
        git init -q -b main "$1/$2" && printf 'x\n' > "$1/$2/$2"
        """#

    /// A repository ready to commit: everything staged, an author set.
    private static let committable = #"""
         && git -C "$1/$2" add -A && git -C "$1/$2" config user.name rws && git -C "$1/$2" config user.email rws@example.invalid
        """#

    /// A commit id depends on the time it was made.
    private static let withoutCommitIDs: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { run in
        var run = run
        run.stdout = Array(run.stdoutText.replacing(/[0-9a-f]{40}/, with: "ID").utf8)
        return run
    }

    /// Device and inode numbers differ from run to run.
    private static let withoutInodes: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { run in
        var run = run
        run.stdout = Array(run.stdoutText.replacing(/[0-9]+_[0-9]+/, with: "D_I").utf8)
        return run
    }

    /// The free space other processes change between the shells' runs: the line says only that there was a figure.
    private static let withoutFreeSpace: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { run in
        var run = run
        var lines = run.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count > 1 { lines[1] = Int(lines[1]) == nil ? "none" : "KiB" }
        run.stdout = Array(lines.joined(separator: "\n").utf8)
        return run
    }

    /// How many progress updates git draws (`\r` between them) depends on timing: keep each line's last.
    private static let withoutProgressUpdates: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { run in
        var run = run
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        // The pack's size and rate depend on the commit's time: the same push, other numbers.
        run.stderr = lines.map { line in
            let last = line.split(separator: "\r").last.map(String.init) ?? ""
            return last.hasPrefix("Writing objects:") ? "Writing objects: (size and rate)" : last
        }.joined(separator: "\n")
        return run
    }

    /// The stamp holds the index's modification time, which differs from sandbox to sandbox.
    private static let withoutStamp: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { run in
        var run = run
        run.stdout = Array(run.stdoutText.replacing(/^git\x00[^\x00]*\x00/, with: "git\u{0}STAMP\u{0}").utf8)
        return run
    }

    private static func fields(_ run: ScriptShells.Run) -> [String] {
        run.stdout.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    static let cases = scriptCases + hookCases + detachedCases

    private static let scriptCases: [ScriptCase] = [
        ScriptCase(
            "listing sessions", ListingScript.script, setup: sessions, normalize: withoutInodes,
            arguments: { [.word("B")] + ListingScript.arguments(window: 4_096, projectPattern: "*", folders: [$0 + "/claude/projects"]) }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.contains("\"type\":\"assistant\"") && run.stdoutText.contains("./p/s.jsonl:2\n")
                    && run.stdoutText.hasSuffix("B end\n"), "\(run)")
        },
        ScriptCase(
            "searching sessions", SessionSearchScript.script, setup: sessions,
            arguments: {
                [.word("B")]
                    + SessionSearchScript.arguments(
                        pattern: try! SearchPattern.text("ASSISTANT"), projectPattern: "*", since: 0, limits: SessionSearchLimits(),
                        folders: [$0 + "/claude/projects", $0 + "/" + hostile])
            }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.contains("\nB dir 1 1\n")
                    && run.stdoutText.contains("\nB files\n48 1700000000 ./p/s.jsonl\n")
                    && run.stdoutText.contains("f ./p/s.jsonl\nh 2 1\ny assistant\nr assistant\nu \nt \nw 9 9 9 {\"type\":\"assistant\"}\n")
                    && run.stdoutText.hasSuffix("B end\n"), "\(run)")
        },
        ScriptCase(
            "checking a saved session", ClaudeSessionSave.script, setup: sessions, normalize: withoutFreeSpace,
            arguments: { [.word("s"), .path($0 + "/" + hostile), .path($0 + "/claude/projects")] }
        ) { run, sandbox in
            let saved = ClaudeSessionSave.parse(run.stdoutText, sessionID: "s")
            try ScriptCase.require(
                run.status == 0 && saved.bytes == 48 && saved.path == sandbox + "/claude/projects/p/s.jsonl" && (saved.freeKiB ?? 0) > 0,
                "\(run)")
        },
        ScriptCase(
            "checking a session never saved", ClaudeSessionSave.script, setup: sessions, normalize: withoutFreeSpace,
            arguments: { [.word(hostile), .path($0 + "/claude/projects")] }
        ) { run, _ in
            let saved = ClaudeSessionSave.parse(run.stdoutText, sessionID: hostile)
            try ScriptCase.require(run.status == 0 && saved.bytes == 0 && saved.path == nil && saved.freeKiB != nil, "\(run)")
        },
        ScriptCase(
            "searching with an expression grep refuses", SessionSearchScript.script, setup: sessions,
            arguments: {
                [.word("B")]
                    + SessionSearchScript.arguments(
                        pattern: try! SearchPattern.regex("(unclosed"), projectPattern: "*", since: 0, limits: SessionSearchLimits(),
                        folders: [$0 + "/claude/projects"])
            }
        ) { run, _ in
            try ScriptCase.require(run.status == SessionSearchScript.Exit.badExpression.rawValue && !run.stderr.isEmpty, "\(run)")
        },
        ScriptCase(
            "listing two project folders by name", ListingScript.script,
            setup: sessions + "\nmkdir -p claude/projects/q claude/projects/r"
                + "\ncp -p claude/projects/p/s.jsonl claude/projects/q/t.jsonl"
                + " && cp -p claude/projects/p/s.jsonl claude/projects/r/u.jsonl",
            normalize: withoutInodes,
            arguments: { [.word("B")] + ListingScript.arguments(window: 4_096, projectPattern: "p\nr", folders: [$0 + "/claude/projects"]) }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.contains("./p/s.jsonl") && run.stdoutText.contains("./r/u.jsonl")
                    && !run.stdoutText.contains("./q/t.jsonl"), "\(run)")
        },
        ScriptCase(
            "widening windows", WideningScript.script, setup: sessions, argumentsOnInput: true,
            arguments: { [.word("B"), .word("10"), .path($0 + "/claude/projects"), .word("./p/s.jsonl"), .word("./p/s.jsonl")] }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.contains("B heads\n==> /dev/null <==\n\n==> ./p/s.jsonl <==\n{\"type\":\"u")
                    && run.stdoutText.contains("B tails\n") && run.stdoutText.hasSuffix("B end\n"), "\(run)")
        },
        ScriptCase(
            "growing tails past the bytes held", WideningScript.script, setup: sessions, argumentsOnInput: true,
            arguments: {
                [.word("B"), .word("10"), .path($0 + "/claude/projects"), .word(""), .word("./p/s.jsonl"), .word("4")]
            }
        ) { run, _ in
            // The file ends `…"assistant"}\n`: its last 10 bytes less the 4 held.
            try ScriptCase.require(
                run.status == 0 && run.stdoutText == "\nB tails\n==> /dev/null <==\n\n==> ./p/s.jsonl <==\nsistan\nB end\n"
                    && run.stderr.isEmpty, "\(run)")
        },
        ScriptCase(
            "widening in a folder removed since the listing", WideningScript.script, argumentsOnInput: true,
            arguments: { [.word("B"), .word("10"), .path($0 + "/" + hostile), .word("./p/s.jsonl"), .word("")] }
        ) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdoutText == "\nB end\n" && run.stderr.isEmpty, "\(run)")
        },
        ScriptCase(
            "reading byte ranges", RemoteByteReader.script, setup: sessions, argumentsOnInput: true,
            arguments: { [.word("B"), .word("raw"), .path($0 + "/claude/projects/p/s.jsonl"), .word("2"), .word("4")] }
        ) { run, _ in
            try ScriptCase.require(run.stdoutText == "\nB range 2 4 raw\ntype\nB end\n", "\(run)")
        },
        ScriptCase(
            // The loop runs until stopped: it is, once its first report is out.
            "following a session", FollowScript.script, setup: sessions, endsOnceOutputHolds: "\nB done\n",
            normalize: withoutInodes,
            arguments: { [.word("B"), .path($0 + "/claude/projects/p/s.jsonl"), .word("0"), .word(""), .word("0.1"), .word("50")] }
        ) { run, _ in
            try ScriptCase.require(run.stdoutText.hasPrefix("\nB data 0 ") && run.stdoutText.hasSuffix("\nB done\n"), "\(run)")
        },
        ScriptCase(
            "appending a title", SessionEditing.appendScript, setup: sessions,
            arguments: { [.path($0 + "/claude/projects/p/s.jsonl"), .word(hostile)] }
        ) { run, sandbox in
            let text = try String(contentsOfFile: sandbox + "/claude/projects/p/s.jsonl", encoding: .utf8)
            try ScriptCase.require(run.status == 0 && text.hasSuffix("\n" + hostile + "\n"), "\(run)")
        },
        ScriptCase("appending to a missing session", SessionEditing.appendScript, arguments: { [.path($0 + "/none"), .word("x")] }) {
            run, _ in
            try ScriptCase.require(run.status == SessionEditing.Exit.noSessionFile.rawValue, "\(run)")
        },
        ScriptCase(
            "deleting a session", SessionEditing.removeScript, setup: sessions + "\nmkdir claude/projects/p/s",
            arguments: { [.path($0 + "/claude/projects/p/s.jsonl"), .path($0 + "/claude/projects/p/s")] }
        ) { run, sandbox in
            try ScriptCase.require(run.status == 0 && !FileManager.default.fileExists(atPath: sandbox + "/claude/projects/p/s"), "\(run)")
        },
        ScriptCase(
            "scanning projects", ProjectScanScript.script, setup: sessions,
            arguments: { [.path($0 + "/ws"), .path($0 + "/claude/projects")] }
        ) { run, sandbox in
            let fields = fields(run)
            try ScriptCase.require(
                run.status == 0 && fields.contains(hostile) && fields.contains(sandbox + "/ws/" + hostile)
                    && fields.contains(#""cwd":"/x""#), "\(run)")
        },
        ScriptCase("creating a project", ProjectScripts.create, arguments: { [.path($0 + "/ws"), .word(hostile), .word("0")] }) {
            run, sandbox in
            try ScriptCase.require(run.status == 0 && fields(run).first == sandbox + "/ws/" + hostile, "\(run)")
        },
        ScriptCase(
            "creating a project that exists", ProjectScripts.create, setup: sessions,
            arguments: { [.path($0 + "/ws"), .word(hostile), .word("0")] }
        ) { run, _ in
            try ScriptCase.require(run.status == ProjectScriptExit.destinationExists.rawValue, "\(run)")
        },
        ScriptCase(
            "registering a history folder", ProjectScripts.registerHistoryFolder, setup: sessions,
            arguments: { [.word(hostile), .path($0 + "/none"), .path($0 + "/claude")] }
        ) { run, sandbox in
            try ScriptCase.require(run.status == 0 && fields(run).first == sandbox + "/claude/projects/" + hostile, "\(run)")
        },
        ScriptCase(
            "deleting a project and its history", ProjectDeletionScript.script, setup: sessions,
            arguments: {
                [
                    .word("0"), .path($0 + "/ws"), .word(hostile), .word("1"), .path($0 + "/claude/projects"),
                    .path($0 + "/claude/projects/p"),
                ]
            }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && fields(run) == ["D", sandbox + "/ws/" + hostile, "H", sandbox + "/claude/projects/p", ""]
                    && !FileManager.default.fileExists(atPath: sandbox + "/claude/projects/p"), "\(run)")
        },
        ScriptCase(
            "deleting a missing project", ProjectDeletionScript.script, setup: sessions,
            arguments: { [.word("1"), .path($0 + "/ws"), .word("none"), .word("0")] }
        ) { run, _ in
            try ScriptCase.require(run.status == ProjectScriptExit.notFound.rawValue, "\(run)")
        },
        ScriptCase(
            "cloning a local repository", CloneScript.script, alsoCovers: [CloneScript.cleanup],
            setup: "git init -q src && git -C src -c user.name=t -c user.email=t@t commit -q --allow-empty -m one",
            arguments: {
                [
                    .path($0 + "/src"), .word(""), .word("ssh -o BatchMode=yes"), .path($0 + "/ws"), .word(hostile),
                    .word(".rws-clone-x-abcdefghijkl"), .word("always"), .word("--depth"), .word("1"),
                ]
            }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && fields(run).first == sandbox + "/ws/" + hostile && fields(run).dropLast().last == "new",
                "\(run)")
        },
        ScriptCase(
            "cleaning up after a clone", CloneScript.cleanup, setup: "mkdir -p ws/.rws-clone-x-abcdefghijkl/a",
            arguments: { [.path($0 + "/ws"), .word(".rws-clone-x-abcdefghijkl")] }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && !FileManager.default.fileExists(atPath: sandbox + "/ws/.rws-clone-x-abcdefghijkl"), "\(run)")
        },
        ScriptCase(
            "listing a repository's files", FileListScript.script,
            setup: #"mkdir -- "$2" && cd -- "$2" && git init -q && : > "-a" && printf 'x' > "$2" && git add -- . && : > untracked"#,
            normalize: withoutStamp,
            arguments: { [.path($0 + "/" + hostile), .word("")] }
        ) { run, _ in
            let fields = fields(run)
            try ScriptCase.require(
                run.status == 0 && fields.first == "git" && fields.contains("-a") && fields.contains(hostile)
                    && fields.contains("untracked"), "\(run)")
        },
        ScriptCase(
            "listing a plain directory's files", FileListScript.script,
            setup: #"mkdir -p d/node_modules/m d/"$2" && : > d/node_modules/m/x && : > d/"$2"/"$2""#,
            arguments: { [.path($0 + "/d"), .word("")] }
        ) { run, _ in
            let fields = fields(run)
            try ScriptCase.require(
                run.status == 0 && fields.first == "find" && fields.contains("./" + hostile + "/" + hostile)
                    && !fields.contains { $0.contains("node_modules") }, "\(run)")
        },
        ScriptCase("listing a missing directory's files", FileListScript.script, arguments: { [.path($0 + "/" + hostile), .word("")] }) {
            run, _ in
            try ScriptCase.require(run.status == FileListScript.Exit.noDirectory.rawValue, "\(run)")
        },
        ScriptCase(
            "starting Claude Code", ClaudeCommandLine.run,
            setup: #"printf '#!/bin/sh\nprintf "<%%s>" "$@"; printf "%%s" "$K"\n' > fake; chmod +x fake"#,
            arguments: {
                [
                    .word("0"), .word("1"), .path($0), .path($0 + "/fake"), .word("m1"), .word("m2"), .word("m3"), .word("1"),
                    .word("K=v a"), .path($0 + "/fake"), .word(hostile),
                ]
            }
        ) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdoutText == "<\(hostile)>v a", "\(run)")
        },
        ScriptCase(
            "starting Claude Code in a missing directory", ClaudeCommandLine.run,
            arguments: {
                [
                    .word("1"), .word("1"), .path($0 + "/" + hostile), .path($0 + "/fake"), .word("m1"), .word("m2"), .word("m3"),
                    .word("0"), .path($0 + "/fake"),
                ]
            }
        ) { run, _ in
            try ScriptCase.require(run.status == ClaudeCommandLine.Exit.missingDirectory.rawValue && run.stderr == "m1\n", "\(run)")
        },
        ScriptCase("reading git status", ReviewScripts.status, setup: repository, arguments: { [.path($0 + "/" + hostile)] }) { run, _ in
            let entries = fields(run)
            try ScriptCase.require(run.status == 0 && entries.contains("? " + hostile) && entries.contains("# branch.head main"), "\(run)")
        },
        ScriptCase(
            "reading the diff", ReviewScripts.diff, setup: repository,
            arguments: {
                [.path($0 + "/" + hostile), .word("worktree"), .word(""), .word("100000"), .word("100000"), .word("100000")]
                    + [.word(":(top,literal)" + hostile)]
            }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.contains("+x\n\u{1}rws-end 1 0 0 0\n") && run.stdoutText.hasSuffix("\u{1}rws-done 0\n"),
                "\(run)")
        },
        ScriptCase(
            "taking a snapshot of the work tree", ReviewScripts.snapshot, setup: repository, arguments: { [.path($0 + "/" + hostile)] }
        ) { run, _ in
            // The tree holding one blob `x\n` named with the hostile word: the same id under every shell.
            try ScriptCase.require(run.status == 0 && run.stdoutText.count == 41, "\(run)")
        },
        ScriptCase(
            "staging paths", ReviewScripts.paths, setup: repository, input: Array(hostile.utf8) + [0],
            arguments: { [.path($0 + "/" + hostile), .word("stage")] }
        ) { run, sandbox in
            let staged = try Shell.run("/usr/bin/git", ["-C", sandbox + "/" + hostile, "diff", "--cached", "--name-only", "-z"])
            try ScriptCase.require(run.status == 0 && staged == hostile + "\0", "\(run), staged \(staged.debugDescription)")
        },
        ScriptCase(
            "committing", ReviewScripts.commit, setup: repository + committable, input: Array(hostile.utf8),
            normalize: withoutCommitIDs, arguments: { [.path($0 + "/" + hostile)] }
        ) { run, sandbox in
            let message = try Shell.run("/usr/bin/git", ["-C", sandbox + "/" + hostile, "log", "-1", "--format=%B"])
            try ScriptCase.require(run.status == 0 && run.stdoutText.count == 41 && message == hostile + "\n\n", "\(run) \(message)")
        },
        ScriptCase(
            "pushing", ReviewScripts.push,
            setup: repository + committable + #" && git -C "$1/$2" commit -q -m first && git init -q --bare "$1/remote.git""#,
            normalize: withoutProgressUpdates,
            arguments: { [.path($0 + "/" + hostile), .word($0 + "/remote.git"), .word("main")] }
        ) { run, sandbox in
            let pushed = try Shell.run("/usr/bin/git", ["-C", sandbox + "/remote.git", "rev-parse", "--verify", "-q", "main"])
            try ScriptCase.require(run.status == 0 && pushed.count == 41, "\(run)")
        },
        ScriptCase(
            "starting a missing Claude Code", ClaudeCommandLine.run,
            arguments: {
                [
                    .word("1"), .word("0"), .path(""), .path($0 + "/none"), .word("m1"), .word("m2"), .word("m3"),
                    .word("0"), .path($0 + "/none"),
                ]
            }
        ) { run, _ in
            try ScriptCase.require(run.status == ClaudeCommandLine.Exit.missingClaude.rawValue && run.stderr == "m2\n", "\(run)")
        },
    ]
}
