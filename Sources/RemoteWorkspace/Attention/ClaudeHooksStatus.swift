/// What ``ClaudeHooks/status(project:)`` found on the box.
public struct ClaudeHooksStatus: Sendable, Equatable {
    /// The settings file looked at.
    public var settingsPath: String
    /// The Claude Code data folder holding the hook and its spool (`<folder>/rws/`).
    public var hookFolder: String
    /// The events whose hook runs the current hook command.
    public var installedEvents: [String]
    /// The events of ``ClaudeHookSettings/events`` without it.
    public var missingEvents: [String]
    /// The events with a hook of an older rws (another command).
    public var outdatedEvents: [String]
    /// Whether the installed hook script is the one this rws installs.
    public var hookScriptIsCurrent: Bool
    /// The bytes in the event spool (both generations).
    public var spoolBytes: Int

    /// Whether every event has the current hook and the script is current.
    public var isComplete: Bool { missingEvents.isEmpty && outdatedEvents.isEmpty && hookScriptIsCurrent }
}

/// What ``ClaudeHooks/install(project:)`` or ``ClaudeHooks/remove(project:)`` did.
public enum ClaudeHooksChange: Sendable, Equatable {
    /// The hooks were added (or brought up to date); the previous file, if any, is at `backupPath`.
    case installed(settingsPath: String, backupPath: String?)
    /// rws's hooks were taken out; `restoredBackup` when the file was restored byte for byte.
    case removed(settingsPath: String, restoredBackup: Bool)
    /// Nothing needed to change.
    case unchanged(settingsPath: String)
}
