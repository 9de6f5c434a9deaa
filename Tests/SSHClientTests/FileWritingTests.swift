import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileWritingTests {
    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func writingReplacesAFileAtomicallyWithExactPermissions(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("write")
        let path = directory + "/config.json"
        try FileFixtures.makeFile(path, Data("old".utf8))
        let oldInode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64
        let contents = Array((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await route.withConnection(kind) { connection in
            try await connection.writeFile(path, contents: contents, permissions: 0o640)
            try await connection.writeFile(directory + "/new file", contents: [], permissions: 0o666)
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == contents)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
        #expect(attributes[.systemFileNumber] as? UInt64 != oldInode, "a new file was renamed over the old one")
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/new file")[.posixPermissions] as? Int == 0o666)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["config.json", "new file"])
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func appendingAddsToTheEndAndCreatesMissingFiles(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("append")
        try await route.withConnection(kind) { connection in
            try await connection.appendFile(directory + "/log", contents: Array("one\n".utf8))
            try await connection.appendFile(directory + "/log", contents: Array("two\n".utf8))
            #expect(try await connection.readFile(directory + "/log") == Array("one\ntwo\n".utf8))
        }
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func directoriesAreMadeWithOrWithoutTheirParents(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("mkdir")
        try await route.withConnection(kind) { connection in
            try await connection.makeDirectory(directory + "/a", permissions: 0o700)
            await #expect(throws: RemoteFileError.alreadyExists(path: directory + "/a")) {
                try await connection.makeDirectory(directory + "/a")
            }
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/x/y")) {
                try await connection.makeDirectory(directory + "/x/y")
            }
            try await connection.makeDirectory(directory + "/x/y/z", withIntermediates: true)
            try await connection.makeDirectory(directory + "/x/y/z", withIntermediates: true)
            #expect(try await connection.stat(directory + "/x/y/z").kind == .directory)
            #expect(try await connection.stat(directory + "/a").attributes.permissions == 0o700)
        }
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func removingTakesFilesLinksAndEmptyDirectoriesButNotFullOnes(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("remove")
        try FileFixtures.makeFile(directory + "/file", Data("x".utf8))
        try FileManager.default.createDirectory(atPath: directory + "/full/empty", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "full")
        try await route.withConnection(kind) { connection in
            await #expect(throws: RemoteFileError.directoryNotEmpty(path: directory + "/full")) {
                try await connection.remove(directory + "/full")
            }
            try await connection.remove(directory + "/full/empty")
            try await connection.remove(directory + "/file")
            try await connection.remove(directory + "/link")
            await #expect(throws: RemoteFileError.noSuchFile(path: directory + "/file")) {
                try await connection.remove(directory + "/file")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["full"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/full").isEmpty)
    }

    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func recursiveRemovalRemovesALinkToAnOutsideDirectoryButNothingItPointsTo(kind: ServerKind, route: FileRoute) async throws {
        let directory = try FileFixtures.scratchDirectory("tree")
        let outside = directory + "/outside"
        try FileManager.default.createDirectory(atPath: outside + "/keep", withIntermediateDirectories: true)
        try FileFixtures.makeFile(outside + "/keep/precious", Data("keep me".utf8))
        let tree = directory + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/a/b", withIntermediateDirectories: true)
        try FileFixtures.makeFile(tree + "/a/b/file", Data("x".utf8))
        try FileFixtures.makeFile(tree + "/a/-dash\nnewline", Data())
        try FileManager.default.createSymbolicLink(atPath: tree + "/a/to-outside", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: tree + "/to-keep", withDestinationPath: outside + "/keep")
        try await route.withConnection(kind) { connection in
            try await connection.removeRecursively(tree)
            await #expect(throws: RemoteFileError.noSuchFile(path: tree)) { try await connection.removeRecursively(tree) }
            await #expect(throws: SSHError.self) { try await connection.removeRecursively("~") }
        }
        #expect(!FileManager.default.fileExists(atPath: tree))
        #expect(try String(contentsOfFile: outside + "/keep/precious", encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["keep"])
    }
}
