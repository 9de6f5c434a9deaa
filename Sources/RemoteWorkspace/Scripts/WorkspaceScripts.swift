import SSHClient

extension RemoteScript {
    /// Every script RemoteWorkspace runs on the box, for tests.
    static let workspaceScripts: [RemoteScript] =
        [
            ListingScript.script, WideningScript.script, RemoteByteReader.script, FollowScript.script,
            SessionEditing.appendScript, SessionEditing.removeScript,
            ProjectScanScript.script, ProjectScripts.create, ProjectScripts.registerHistoryFolder, ProjectDeletionScript.script,
            CloneScript.script, CloneScript.cleanup, ClaudeCommandLine.run, FileListScript.script,
            SessionSearchScript.script, ClaudeSessionSave.script,
        ] + ReviewScripts.all + ClaudeHookScripts.all + DetachedClaudeScripts.all + ClaudeStandingGrants.all
}
