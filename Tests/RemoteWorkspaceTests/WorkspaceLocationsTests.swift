import RemoteWorkspace
import Testing

@Suite struct WorkspaceLocationsTests {
    @Test func defaultsFollowClaudeCodeAndProbeTheXDGFolderToo() {
        let locations = WorkspaceLocations()
        #expect(locations.workspaceRoot == "~/workspace")
        #expect(locations.claudeProjectFolders == ["~/.claude/projects", "~/.config/claude/projects"])
    }
}
