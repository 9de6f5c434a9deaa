import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// The review scripts run by /bin/sh (dash) on this machine against real git repositories, and
/// their output read by the parsers: what git reports is what the types say.
@Suite struct GitReviewParsingTests {
    private static func run(_ script: RemoteScript, in directory: String, _ arguments: [String] = []) throws -> ScriptShells.Run {
        try ScriptShells.run(
            script, [.path(directory)] + arguments.map { .word($0) }, shell: try ScriptShells.dash(), directory: "/", home: "/",
            timeout: .seconds(60))
    }

    private static func diff(
        _ directory: String, base: String = "worktree", revision: String = "", limits: GitDiffLimits = GitDiffLimits(),
        paths: [String] = []
    ) throws -> GitDiff {
        let run = try run(
            ReviewScripts.diff, in: directory,
            [base, revision, String(limits.bytesPerFile), String(limits.totalBytes), String(limits.largeFileBytes)] + paths)
        try #require(run.status == 0, "\(run)")
        return try GitDiffParser.parse(run.stdout)
    }

    @Test func statusNamesTheBranchAndEveryKindOfEntryWithHostileNamesByteForByte() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.make(in: folder.path)
        let run = try Self.run(ReviewScripts.status, in: repo)
        try #require(run.status == 0, "\(run)")
        let status = try GitStatusParser.parse(run.stdout)

        #expect(status.branch == "main")
        #expect(status.headCommit?.count == 40)
        #expect(status.upstream == nil && status.ahead == nil)
        let byPath = Dictionary(uniqueKeysWithValues: status.entries.map { ($0.path.bytes, $0) })
        let renamed = try #require(byPath[Array("renamed.txt".utf8)])
        #expect(renamed.kind == .renamed && renamed.originalPath == GitPath("r.txt") && renamed.staged == .renamed && renamed.score == 100)
        #expect(byPath[Array("bin".utf8)]?.unstaged == .modified)
        #expect(byPath[Array("del.txt".utf8)]?.unstaged == .deleted)
        #expect(byPath[Array("mode.sh".utf8)]?.modes?.worktree == "100755")
        let submodule = try #require(byPath[Array("sm".utf8)])
        #expect(submodule.isSubmodule && submodule.submoduleChanges?.hasModifications == true)
        let conflict = try #require(byPath[Array("c.txt".utf8)])
        #expect(conflict.kind == .conflicted && conflict.conflict == "UU")
        for name in ReviewRepository.hostileNames {
            #expect(byPath[name]?.kind == .untracked, "untracked \(String(decoding: name, as: UTF8.self).debugDescription)")
        }
        #expect(status.untracked.count == ReviewRepository.hostileNames.count)
    }

    @Test func theWorkTreeDiffShowsEveryChangeAndUntrackedFilesAsNewWithoutTouchingTheIndex() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.make(in: folder.path)
        let indexBefore = try Data(contentsOf: URL(fileURLWithPath: repo + "/.git/index"))
        let diff = try Self.diff(repo)
        let indexAfter = try Data(contentsOf: URL(fileURLWithPath: repo + "/.git/index"))
        #expect(indexBefore == indexAfter, "the real index is never written")

        let byPath = Dictionary(uniqueKeysWithValues: diff.files.map { ($0.path.bytes, $0) })
        let binary = try #require(byPath[Array("bin".utf8)])
        #expect(binary.isBinary && !binary.isTooLarge && binary.hunks.isEmpty && binary.change == .modified)
        let mode = try #require(byPath[Array("mode.sh".utf8)])
        #expect(mode.isModeChangeOnly && mode.oldMode == "100644" && mode.newMode == "100755")
        let deleted = try #require(byPath[Array("del.txt".utf8)])
        #expect(deleted.change == .deleted && deleted.deleted == 1 && deleted.added == 0)
        #expect(deleted.hunks.first?.lines == [GitDiffLine(kind: .deleted, text: "gone", oldLine: 1)])
        let conflict = try #require(byPath[Array("c.txt".utf8)])
        #expect(conflict.change == .conflicted)
        #expect(conflict.hunks.first?.lines.contains { $0.kind == .added && $0.text == "<<<<<<< HEAD" } == true)
        let submodule = try #require(byPath[Array("sm".utf8)])
        #expect(submodule.isSubmodule)
        for name in ReviewRepository.hostileNames {
            let file = try #require(byPath[name], "new file \(String(decoding: name, as: UTF8.self).debugDescription)")
            #expect(file.change == .added && file.added == 1)
            #expect(file.hunks.first?.lines == [GitDiffLine(kind: .added, text: "x", newLine: 1)])
        }
        #expect(!diff.isCut)
    }

    @Test func theStagedDiffHoldsTheRenameWithItsSimilarity() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.make(in: folder.path)
        let diff = try Self.diff(repo, base: "staged")
        let rename = try #require(diff.files.first { $0.path == GitPath("renamed.txt") })
        #expect(rename.change == .renamed && rename.originalPath == GitPath("r.txt") && rename.similarity == 100)
        #expect(!diff.files.contains { $0.path == GitPath("bin") }, "unstaged changes are not in the staged diff")
    }

    @Test func hunksCarryLineNumbersOnBothSides() throws {
        let folder = try TemporaryFolder()
        try Shell.sh(
            """
            set -e; cd '\(folder.path)'; git init -q -b main r; cd r
            seq 1 20 > f; git add f; git -c user.name=t -c user.email=t@e commit -qm one
            seq 1 20 | sed -e 's/^5$/five/' -e '/^15$/d' > f
            """)
        let file = try #require(try Self.diff(folder.path + "/r").files.first)
        #expect(file.added == 1 && file.deleted == 2)
        let lines = file.hunks.flatMap(\.lines)
        #expect(lines.contains(GitDiffLine(kind: .deleted, text: "5", oldLine: 5)))
        #expect(lines.contains(GitDiffLine(kind: .added, text: "five", newLine: 5)))
        #expect(lines.contains(GitDiffLine(kind: .deleted, text: "15", oldLine: 15)))
        #expect(lines.contains(GitDiffLine(kind: .context, text: "16", oldLine: 16, newLine: 15)))
        #expect(file.hunks.count == 2 && file.hunks[1].oldStart == 12 && file.hunks[1].newStart == 12)
    }

    /// git trusts a file whose size and times match its index entry, unless the entry is "racy":
    /// not older than the index itself, so a same-size edit in the second of the commit still
    /// counts. The scripts read through a copy of the index, which keeps the index's time.
    @Test func aSameSizeEditInTheSecondOfTheCommitIsInTheDiffAndTheSnapshot() throws {
        let folder = try TemporaryFolder()
        // The commit, the edit and the index all in one second, a past one (the copy made now
        // would be later); trustctime off, as the edit's own ctime is now.
        let headTree = try Shell.sh(
            """
            set -e; cd '\(folder.path)'; git init -q -b main r; cd r; git config core.trustctime false
            past=$(( $(date +%s) - 100 ))
            seq 1 20 > f; touch -d @$past f; git add f; git -c user.name=t -c user.email=t@e commit -qm one
            seq 1 20 | sed -e 's/^5$/five/' -e '/^15$/d' > f; touch -d @$past f .git/index
            git rev-parse 'HEAD^{tree}'
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let file = try #require(try Self.diff(folder.path + "/r").files.first)
        #expect(file.added == 1 && file.deleted == 2)
        let snapshot = try Self.run(ReviewScripts.snapshot, in: folder.path + "/r")
        try #require(snapshot.status == 0, "\(snapshot)")
        #expect(snapshot.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) != headTree)
    }

    @Test func aFileOverItsShareIsCutWithItsFullCountsAndTheTotalCutIsReported() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 10000)
        let diff = try Self.diff(repo, limits: GitDiffLimits(bytesPerFile: 4096, totalBytes: 1 << 20, largeFileBytes: 1 << 30))
        let long = try #require(diff.files.first { $0.path == GitPath("long.txt") })
        #expect(long.added == 10000 && long.deleted == 10000, "counts cover the lines not sent")
        #expect(long.isCut && long.omittedLines > 19000 && long.omittedBytes > 100_000)
        let small = try #require(diff.files.first { $0.path == GitPath("small.txt") })
        #expect(!small.isCut && small.added == 1)
        #expect(!diff.isCut)

        let tight = try Self.diff(repo, limits: GitDiffLimits(bytesPerFile: 1 << 20, totalBytes: 2048, largeFileBytes: 1 << 30))
        #expect(tight.isCut)
        #expect(tight.files.map(\.path) == [GitPath("long.txt"), GitPath("small.txt")], "every file is listed")
        #expect(tight.files[1].hunks.isEmpty && tight.files[1].added == 1, "after the total, counts only")
    }

    @Test func aWorkTreeFileOverTheLargeLimitIsListedAsTooLargeWithoutBeingDiffed() throws {
        let folder = try TemporaryFolder()
        try Shell.sh(
            """
            set -e; cd '\(folder.path)'; git init -q -b main r; cd r
            seq 1 300000 > 'gen [1]*.js'; git add -A; git -c user.name=t -c user.email=t@e commit -qm one
            seq 2 300001 > 'gen [1]*.js'; seq 1 10 > other.js
            """)
        let started = ContinuousClock.now
        let diff = try Self.diff(folder.path + "/r", limits: GitDiffLimits(largeFileBytes: 100_000))
        let generated = try #require(diff.files.first { $0.path == GitPath("gen [1]*.js") })
        #expect(generated.isTooLarge && generated.isBinary && generated.hunks.isEmpty)
        #expect(diff.files.first { $0.path == GitPath("other.js") }?.added == 10, "other files are diffed as usual")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aRevisionDiffComparesTheWorkTreeWithThatCommit() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        try Shell.sh("cd '\(repo)' && git add -A && git -c user.name=t -c user.email=t@e commit -qm two && echo new > n.txt")
        let sinceBase = try Self.diff(repo, base: "rev", revision: "HEAD~1")
        #expect(Set(sinceBase.files.map(\.path)) == [GitPath("long.txt"), GitPath("small.txt"), GitPath("n.txt")])
        let sinceHead = try Self.diff(repo, base: "rev", revision: "HEAD")
        #expect(sinceHead.files.map(\.path) == [GitPath("n.txt")])
    }

    @Test func pathsNarrowTheDiffLiterally() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.make(in: folder.path)
        let diff = try Self.diff(repo, paths: [try ProjectReview.pathspec(GitPath("-dash")), try ProjectReview.pathspec(GitPath("bin"))])
        #expect(Set(diff.files.map(\.path)) == [GitPath("-dash"), GitPath("bin")])
    }

    @Test func theScriptsSayWhatIsWrongWithTheDirectory() throws {
        let folder = try TemporaryFolder()
        #expect(try Self.run(ReviewScripts.status, in: folder.path + "/missing").status == ReviewScriptExit.directoryNotFound.rawValue)
        #expect(try Self.run(ReviewScripts.status, in: folder.path).status == ReviewScriptExit.notARepository.rawValue)
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        let unknown = try Self.run(ReviewScripts.diff, in: repo, ["rev", "no-such-branch", "1000", "1000", "1000"])
        #expect(unknown.status == ReviewScriptExit.gitFailed.rawValue && unknown.stderr.contains("no-such-branch"))
    }

    @Test func revisionsThatGitWouldReadAsOptionsAreRefusedBeforeAnythingRuns() {
        #expect(throws: ReviewError.invalidRevision("--output=/tmp/x", reason: "it starts with '-'; name a commit, branch or tag")) {
            try ProjectReview.validate(revision: "--output=/tmp/x")
        }
        #expect(throws: ReviewError.self) { try ProjectReview.validate(revision: "") }
        #expect(throws: ReviewError.self) { try ProjectReview.validate(revision: "a\nb") }
    }
}

extension GitReviewParsingTests {
    @Test func aSnapshotComparedWithNowShowsOnlyWhatChangedSinceUntrackedFilesIncluded() throws {
        let folder = try TemporaryFolder()
        let repo = try ReviewRepository.makeLong(in: folder.path, lines: 3)
        try Shell.sh("cd '\(repo)' && echo before > untracked-before.txt")
        let indexBefore = try Data(contentsOf: URL(fileURLWithPath: repo + "/.git/index"))
        let snapshot = try Self.run(ReviewScripts.snapshot, in: repo)
        try #require(snapshot.status == 0, "\(snapshot)")
        let tree = snapshot.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Data(contentsOf: URL(fileURLWithPath: repo + "/.git/index")) == indexBefore)

        try Shell.sh("cd '\(repo)' && echo during > made-during-turn.txt && echo more >> untracked-before.txt && rm small.txt")
        let diff = try Self.diff(repo, base: "rev", revision: tree)
        let changes = Dictionary(uniqueKeysWithValues: diff.files.map { ($0.path.description, $0.change) })
        #expect(changes == ["made-during-turn.txt": .added, "untracked-before.txt": .modified, "small.txt": .deleted])
    }
}
