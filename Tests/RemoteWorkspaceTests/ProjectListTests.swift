import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct ProjectListTests {
    @Test(arguments: ServerKind.allCases)
    func twoHundredProjectsWithHistoryForHalfAreListedWithOneRemoteCommand(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let root = URL(fileURLWithPath: sandbox.workspaceRoot).resolvingSymlinksInPath().path
        for index in 0..<200 {
            let name = String(format: "p%03d", index)
            try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/" + name, withIntermediateDirectories: true)
            guard index % 2 == 0 else { continue }
            for _ in 0..<(index % 3 + 1) {
                try sandbox.writeSession(folder: ProjectFolderName.encode(root + "/" + name), cwd: root + "/" + name)
            }
        }
        let (projects, channels) = try await sandbox.withManager { manager in
            let connection = try #require(manager.connection)
            let before = connection.channelsOpened
            let projects = try await manager.listProjects()
            return (projects, connection.channelsOpened - before)
        }
        #expect(channels == 1)
        #expect(projects.count == 200)
        #expect(projects.allSatisfy { $0.isInWorkspace && $0.directoryExists })
        for (index, project) in projects.enumerated() {
            #expect(project.name == String(format: "p%03d", index))
            #expect(project.sessionCount == (index % 2 == 0 ? index % 3 + 1 : 0), "\(project.name)")
            #expect((project.lastActivity != nil) == (index % 2 == 0))
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func historyIsJoinedByTheRecordedCwdNeverByDecodingTheFolderName(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let root = URL(fileURLWithPath: sandbox.workspaceRoot).resolvingSymlinksInPath().path
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/my_app", withIntermediateDirectories: true)
        // Both paths encode to the same folder name; the folder's records say which one it is.
        try sandbox.writeSession(folder: ProjectFolderName.encode(root + "/my-app"), cwd: root + "/my-app")
        try sandbox.writeSession(folder: "elsewhere", cwd: "/srv/other project")
        let projects = try await sandbox.withManager { try await $0.listProjects() }
        #expect(projects.map(\.name) == ["my_app", "my-app", "other project"])
        #expect(projects[0].sessionCount == 0)
        #expect(
            projects[1]
                == Project(
                    name: "my-app", path: root + "/my-app", isInWorkspace: false, directoryExists: false,
                    sessionCount: 1, lastActivity: projects[1].lastActivity,
                    historyFolders: [sandbox.claudeProjects + "/" + ProjectFolderName.encode(root + "/my-app")]))
        #expect(projects[2].path == "/srv/other project")
    }

    @Test(arguments: ScriptPlace.allCases)
    func gitBranchAndDirtyFlagAreReported(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        let repo = sandbox.workspaceRoot + "/repo"
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        try Shell.run("/usr/bin/git", ["init", "-q", "-b", "trunk", repo])
        let clean = try await sandbox.withManager { try await $0.listProjects() }
        try "x".write(toFile: repo + "/new.txt", atomically: true, encoding: .utf8)
        let dirty = try await sandbox.withManager { try await $0.listProjects() }
        #expect(clean.first?.gitBranch == "trunk" && clean.first?.isDirty == false && clean.first?.isGitRepository == true)
        #expect(dirty.first?.isDirty == true)
    }

    @Test(arguments: ScriptPlace.allCases)
    func aMissingWorkspaceRootListsNothing(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        #expect(try await sandbox.withManager { try await $0.listProjects() } == [])
    }
}
