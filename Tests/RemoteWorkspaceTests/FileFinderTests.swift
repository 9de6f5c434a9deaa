import Foundation
import RWSTestSupport
import RemoteWorkspace
import Testing

/// `FileFinder` lists a project's files on the box (git or find), caches the list until the
/// repository changes, and ranks it.
@Suite struct FileFinderTests {
    static let hostileNames = ["line\nbreak.txt", "quote'\"s.txt", "-leading.txt", "sp ace/$(touch CANARY).txt"]

    /// A git repository in the sandbox with tracked, untracked, ignored and hostile files.
    private func makeRepository(_ sandbox: TestBox) throws -> String {
        let repo = sandbox.workspaceRoot + "/repo"
        try FileManager.default.createDirectory(atPath: repo + "/sp ace", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repo + "/Sources/Find", withIntermediateDirectories: true)
        for name in Self.hostileNames + ["Sources/Find/FileFinder.swift", "README.md", ".gitignore"] {
            try Data(name == ".gitignore" ? "*.log\n".utf8 : "x".utf8).write(to: URL(fileURLWithPath: repo + "/" + name))
        }
        // caf\351.bin: a name that is not UTF-8.
        try Shell.sh(
            "cd '\(repo)' && git init -q && printf x > \"$(printf 'caf\\351.bin')\" && git add -A"
                + " && git -c user.name=t -c user.email=t@t commit -qm one")
        try Data("u".utf8).write(to: URL(fileURLWithPath: repo + "/untracked.txt"))
        try Data("l".utf8).write(to: URL(fileURLWithPath: repo + "/debug.log"))
        return repo
    }

    @Test(arguments: ScriptPlace.allCases)
    func aRepositoryListsTrackedAndUntrackedFilesButNotIgnoredOnes(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let repo = try makeRepository(sandbox)
        let list = try await sandbox.withHost { try await FileFinder(host: $0).files(in: repo) }
        let paths = Set(list.paths)
        #expect(list.isGitRepository)
        for name in Self.hostileNames + ["Sources/Find/FileFinder.swift", "README.md", "untracked.txt"] {
            #expect(paths.contains(Array(name.utf8)), "\(name) missing")
        }
        #expect(paths.contains(Array("caf".utf8) + [0xE9] + Array(".bin".utf8)))
        #expect(!paths.contains(Array("debug.log".utf8)))
        let home = try sandbox.place.home()
        #expect(!sandbox.exists(repo + "/CANARY") && !sandbox.exists(home + "/CANARY"))
    }

    @Test(arguments: ScriptPlace.allCases)
    func aQueryRanksTheFileNameMatchFirstWithItsPositions(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let repo = try makeRepository(sandbox)
        let matches = try await sandbox.withHost { try await FileFinder(host: $0).find("ffind", in: repo) }
        let first = try #require(matches.first)
        #expect(first.path == "Sources/Find/FileFinder.swift")
        #expect(first.positions.map { first.pathBytes[$0] } == Array("FFind".utf8))
    }

    @Test(arguments: ScriptPlace.allCases)
    func theCachedListIsReusedUntilTheIndexChanges(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let repo = try makeRepository(sandbox)
        try await sandbox.withHost { host in
            let finder = FileFinder(host: host)
            let first = try await finder.files(in: repo)
            // A new untracked file alone does not change the index: the cached list is answered.
            try Data("n".utf8).write(to: URL(fileURLWithPath: repo + "/new.txt"))
            let second = try await finder.files(in: repo)
            #expect(second.paths == first.paths && second.stamp == first.stamp)
            // Staging it does; the mtime has one-second resolution, so wait for the next second.
            try await Task.sleep(for: .milliseconds(1100))
            try Shell.sh("cd '\(repo)' && git add new.txt")
            let third = try await finder.files(in: repo)
            #expect(third.stamp != first.stamp)
            #expect(third.paths.contains(Array("new.txt".utf8)))
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func aConflictedFileIsListedOnceThoughGitListsEachStage(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let repo = sandbox.workspaceRoot + "/conflict"
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        let git = "git -c user.name=t -c user.email=t@t"
        try Shell.sh(
            "cd '\(repo)' && git init -q && echo a > f && git add f && \(git) commit -qm a && git checkout -qb other"
                + " && echo b > f && \(git) commit -qam b && git checkout -q - && echo c > f && \(git) commit -qam c"
                + " && { \(git) merge -q other >/dev/null 2>&1 || true; }")
        #expect(try Shell.sh("cd '\(repo)' && git ls-files -c") == "f\nf\nf\n", "the repository is in conflict")
        let list = try await sandbox.withHost { try await FileFinder(host: $0).files(in: repo) }
        #expect(list.paths == [Array("f".utf8)])
    }

    @Test(arguments: ScriptPlace.allCases)
    func aPlainDirectoryIsListedWithFindPruningDependencyFolders(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let dir = sandbox.workspaceRoot + "/plain"
        for folder in ["node_modules/pkg", ".git", ".build/debug", "src"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["node_modules/pkg/index.js", ".git/HEAD", ".build/debug/x.o", "src/main.c", "-leading.txt", "line\nbreak.c"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/" + file))
        }
        let list = try await sandbox.withHost { try await FileFinder(host: $0).files(in: dir) }
        #expect(!list.isGitRepository)
        #expect(Set(list.paths.map { String(decoding: $0, as: UTF8.self) }) == ["src/main.c", "-leading.txt", "line\nbreak.c"])
    }

    @Test(arguments: ScriptPlace.allCases)
    func aMissingDirectoryIsAClearError(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let missing = sandbox.workspaceRoot + "/none"
        let error = await #expect(throws: FileFinderError.self) {
            try await sandbox.withHost { try await FileFinder(host: $0).files(in: missing) }
        }
        #expect(error == .directoryNotFound(path: missing))
    }
}
