/// How Claude Code asks before it uses a tool (`--permission-mode`).
///
/// Not a closed list: Claude Code adds modes (`dontAsk`, `auto`…), and the one on the box decides
/// which it accepts, so any name can be passed on; ``known`` are those this version of rws has seen.
public struct ClaudePermissionMode: RawRepresentable, Sendable, Hashable {
    /// The mode's name as Claude Code spells it.
    public var rawValue: String

    /// A mode by name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Asks for every tool that changes something (each question arrives as a permission request).
    public static let `default` = ClaudePermissionMode(rawValue: "default")
    /// Plans only: no tool that changes anything runs.
    public static let plan = ClaudePermissionMode(rawValue: "plan")
    /// Edits files without asking; other tools still ask.
    public static let acceptEdits = ClaudePermissionMode(rawValue: "acceptEdits")
    /// Runs every tool without asking.
    public static let bypassPermissions = ClaudePermissionMode(rawValue: "bypassPermissions")
    /// Denies, without asking, every tool not allowed by a rule.
    public static let dontAsk = ClaudePermissionMode(rawValue: "dontAsk")
    /// Lets Claude Code decide which calls need a question.
    public static let auto = ClaudePermissionMode(rawValue: "auto")

    /// The modes Claude Code 2.1.33x accepts (its own list), in its order.
    public static let known: [ClaudePermissionMode] = [.default, .acceptEdits, .bypassPermissions, .plan, .dontAsk, .auto]
}
