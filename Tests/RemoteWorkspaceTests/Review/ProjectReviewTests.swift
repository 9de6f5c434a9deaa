import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// The review over the wire, on both servers: the same repository read through SSH as the
/// parsing tests read it locally.
@Suite struct ProjectReviewTests {
    @Test(arguments: ServerKind.allCases)
    func statusAndDiffOfARepositoryOnTheBoxKeepEveryHostileNameExact(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let repo = try ReviewRepository.make(in: sandbox.root)
        try await sandbox.server.withConnection { connection in
            let review = ProjectReview(connection: connection, directory: repo)
            let status = try await review.status()
            #expect(status.branch == "main" && status.conflicted.map(\.path) == [GitPath("c.txt")])
            #expect(Set(status.untracked.map(\.path.bytes)) == Set(ReviewRepository.hostileNames))

            let diff = try await review.diff()
            for name in ReviewRepository.hostileNames {
                #expect(diff.files.contains { $0.path.bytes == name && $0.change == .added })
            }
            #expect(diff.files.first { $0.path == GitPath("del.txt") }?.change == .deleted)
            let staged = try await review.diff(.staged)
            #expect(staged.files.map(\.path) == [GitPath("renamed.txt")] && staged.files[0].originalPath == GitPath("r.txt"))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func whatATurnChangedIsTheDiffAgainstTheSnapshotTakenWhenItStarted(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let repo = try ReviewRepository.makeLong(in: sandbox.root, lines: 3)
        try await sandbox.server.withConnection { connection in
            let review = ProjectReview(connection: connection, directory: repo)
            let before = try await review.diff()
            let snapshot = try await review.snapshot()
            _ = try await connection.run("cd \(try ShellQuoting.quote(repo)) && echo new > turn.txt && printf 'x\\n' >> long.txt")
            let turn = try await review.diff(.snapshot(snapshot))
            #expect(Set(turn.files.map(\.path)) == [GitPath("turn.txt"), GitPath("long.txt")])
            #expect(turn.files.first { $0.path == GitPath("long.txt") }?.added == 1, "only the turn's line, not the earlier changes")
            #expect(before.files.count == 2)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aMissingDirectoryAndAFolderThatIsNoRepositoryAreSaidSo(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        try await sandbox.server.withConnection { connection in
            let missing = sandbox.root + "/nope"
            await #expect(throws: ReviewError.directoryNotFound(path: missing)) {
                try await ProjectReview(connection: connection, directory: missing).status()
            }
            await #expect(throws: ReviewError.notARepository(path: sandbox.root)) {
                try await ProjectReview(connection: connection, directory: sandbox.root).diff()
            }
        }
    }
}
