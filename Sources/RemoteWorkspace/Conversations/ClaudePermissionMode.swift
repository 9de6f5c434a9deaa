/// How Claude Code asks before it uses a tool (`--permission-mode`).
public enum ClaudePermissionMode: String, Sendable, CaseIterable, Equatable {
    /// Asks for every tool that changes something (each question arrives as a permission request).
    case `default`
    /// Plans only: no tool that changes anything runs.
    case plan
    /// Edits files without asking; other tools still ask.
    case acceptEdits
    /// Runs every tool without asking.
    case bypassPermissions
}
