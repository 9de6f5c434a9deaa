import Foundation
import RWSTestSupport
import RemoteWorkspace
import Testing

@Suite struct ProjectDeleteTests {
    @Test(arguments: ScriptPlace.allCases)
    func aProjectThatIsASymlinkOutsideTheRootLosesOnlyTheLink(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let outside = sandbox.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "precious".write(toFile: outside + "/data.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/other", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.workspaceRoot + "/linked", withDestinationPath: outside)
        let report = try await sandbox.withManager { try await $0.deleteProject(name: "linked") }
        #expect(report.items.map(\.kind) == [.symbolicLink])
        #expect(report.items.first?.path.hasSuffix("/workspace/linked") == true)
        #expect(try String(contentsOfFile: outside + "/data.txt", encoding: .utf8) == "precious")
        #expect(sandbox.workspaceEntries() == ["other"])
    }

    @Test(arguments: ScriptPlace.allCases)
    func theRootItselfIsNeverDeleted(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/keep", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.workspaceRoot + "/self", withDestinationPath: ".")
        try await sandbox.withManager { manager in
            for name in ["", ".", ".."] {
                await #expect(throws: ProjectError.refusedRoot(path: sandbox.workspaceRoot)) { try await manager.deleteProject(name: name) }
            }
            await #expect(throws: ProjectError.self) { try await manager.deleteProject(name: "../workspace") }
            let report = try await manager.deleteProject(name: "self")
            #expect(report.items.map(\.kind) == [.symbolicLink])
        }
        #expect(sandbox.workspaceEntries() == ["keep"])
    }

    @Test(arguments: ScriptPlace.allCases)
    func aDirectoryAndItsHistoryAreRemovedAndReported(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let project = try await sandbox.withManager { try await $0.createProject(name: "app") }
        try sandbox.writeSession(folder: (project.historyFolders[0] as NSString).lastPathComponent, cwd: project.path)
        let (dry, real) = try await sandbox.withManager { manager in
            (
                try await manager.deleteProject(name: "app", includingHistory: true, dryRun: true),
                try await manager.deleteProject(name: "app", includingHistory: true)
            )
        }
        #expect(dry.dryRun && dry.items == real.items)
        #expect(real.items == [.init(kind: .directory, path: project.path), .init(kind: .historyFolder, path: project.historyFolders[0])])
        #expect(!sandbox.exists(project.path) && !sandbox.exists(project.historyFolders[0]))
    }

    @Test(arguments: ScriptPlace.allCases)
    func deletingAMissingProjectSaysSo(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let error = await #expect(throws: ProjectError.self) { try await sandbox.withManager { try await $0.deleteProject(name: "ghost") } }
        #expect(error == .projectNotFound(name: "ghost", root: sandbox.workspaceRoot))
    }
}
