import Foundation
import RWSTestSupport
import SSHConfig
import Testing

/// `rws --version`: the version the sources define (`RWSVersion.number`) and, when rws was built
/// from a git checkout, the commit HEAD is at.
@Suite struct VersionTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-version-home-\(UUID().uuidString.prefix(8))").path

    /// The checkout these tests (and the rws they run) were built from.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let isGitCheckout = FileManager.default.fileExists(atPath: packageRoot + "/.git")

    @Test func versionPrintsTheVersionTheSourcesDefine() async throws {
        let outcome = try await RWSBinary.run(["--version"], home: home)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.split(separator: " ").prefix(2) == ["rws", Substring(RWSVersion.number)], "\(outcome.stdout)")
        #expect(outcome.stderr.isEmpty)
    }

    @Test(.enabled(if: isGitCheckout, "rws names a commit only when built from a git checkout"))
    func versionNamesTheCommitHeadIsAtInAGitCheckout() async throws {
        let head = try Shell.run("/usr/bin/git", ["-C", Self.packageRoot, "rev-parse", "HEAD"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.count == 40 || head.count == 64)
        let outcome = try await RWSBinary.run(["--version"], home: home)
        #expect(outcome.stdout == "rws \(RWSVersion.number) (commit \(head.prefix(12)))\n")
    }
}

/// The tool the build runs to read the commit (`git-commit-reader`, of the GitCommitPlugin), on
/// the layouts a checkout's refs can have; a worktree's or submodule's `.git` file is followed by
/// the plugin, and this checkout's own build is the test of that when it is a worktree.
extension VersionTests {
    static let commit = "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"

    /// Makes a git folder holding `files` (path: text), runs the tool on it (with `commonFiles`
    /// in a separate common folder, as a worktree has, when given) and returns what it wrote.
    private func generated(_ files: [String: String], commonFiles: [String: String]? = nil) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-git-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (gitDirectory, commonDirectory) = (folder + "/git", commonFiles == nil ? folder + "/git" : folder + "/common")
        for (directory, files) in [(gitDirectory, files), (commonDirectory, commonFiles ?? [:])] {
            for (path, text) in files {
                let file = URL(fileURLWithPath: directory + "/" + path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
        }
        let tool = URL(fileURLWithPath: RWSBinary.path).deletingLastPathComponent().appendingPathComponent("git-commit-reader").path
        try Shell.run(tool, [folder + "/GitCommit.swift", gitDirectory, commonDirectory])
        return try String(contentsOfFile: folder + "/GitCommit.swift", encoding: .utf8)
    }

    @Test func theCommitIsReadFromTheBranchHeadNames() throws {
        let source = try generated(["HEAD": "ref: refs/heads/main\n", "refs/heads/main": Self.commit + "\n"])
        #expect(source.contains("let gitCommit: String? = \"\(Self.commit)\"\n"), "\(source)")
    }

    @Test func aBranchOnlyInPackedRefsIsFoundThere() throws {
        let packed =
            "# pack-refs with: peeled fully-peeled sorted \n\(String(repeating: "e", count: 40)) refs/heads/other\n"
            + "\(Self.commit) refs/heads/main\n^\(String(repeating: "f", count: 40))\n"
        let source = try generated(["HEAD": "ref: refs/heads/main\n", "packed-refs": packed])
        #expect(source.contains("\"\(Self.commit)\""), "\(source)")
    }

    @Test func aDetachedHeadIsItsOwnCommit() throws {
        #expect(try generated(["HEAD": Self.commit + "\n"]).contains("\"\(Self.commit)\""))
    }

    @Test func aWorktreesBranchIsReadFromTheCommonFolder() throws {
        let source = try generated(["HEAD": "ref: refs/heads/release\n"], commonFiles: ["refs/heads/release": Self.commit + "\n"])
        #expect(source.contains("\"\(Self.commit)\""), "\(source)")
    }

    @Test func aBranchWithoutACommitYetIsNoCommit() throws {
        #expect(try generated(["HEAD": "ref: refs/heads/main\n"]).contains("let gitCommit: String? = nil\n"))
    }
}
