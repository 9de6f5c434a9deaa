import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct ProjectCreateTests {
    @Test(arguments: ScriptPlace.allCases)
    func createMakesTheDirectoryAndRegistersItWhereClaudeCodeLooks(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let project = try await sandbox.withManager { try await $0.createProject(name: "fresh", gitInit: true) }
        let real = URL(fileURLWithPath: sandbox.workspaceRoot + "/fresh").resolvingSymlinksInPath().path
        #expect(project.path == real)
        #expect(project.isGitRepository && project.gitBranch != nil)
        #expect(sandbox.exists(real + "/.git/HEAD"))
        #expect(project.historyFolders == [sandbox.claudeProjects + "/" + ProjectFolderName.encode(real)])
        #expect(sandbox.exists(project.historyFolders[0]))
    }

    @Test(arguments: ScriptPlace.allCases)
    func anExistingDirectoryIsAnErrorAndIsLeftAlone(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/here", withIntermediateDirectories: true)
        try "mine".write(toFile: sandbox.workspaceRoot + "/here/file", atomically: true, encoding: .utf8)
        let error = await #expect(throws: ProjectError.self) { try await sandbox.withManager { try await $0.createProject(name: "here") } }
        #expect(error == .destinationExists(path: sandbox.workspaceRoot + "/here"))
        #expect(try String(contentsOfFile: sandbox.workspaceRoot + "/here/file", encoding: .utf8) == "mine")
    }
}
