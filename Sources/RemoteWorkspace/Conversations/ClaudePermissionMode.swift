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
    /// Lets Claude Code decide which calls need a question: the default of its interactive UI
    /// since 2.1.33x (print mode, `-p`, still starts in `default`).
    public static let auto = ClaudePermissionMode(rawValue: "auto")
    /// Another name for `default` (Claude Code reports it as `default`).
    public static let manual = ClaudePermissionMode(rawValue: "manual")

    /// The modes `claude --help` lists for `--permission-mode` in 2.1.33x, in its order, then
    /// `default`, which it accepts without listing.
    public static let known: [ClaudePermissionMode] = [.acceptEdits, .auto, .bypassPermissions, .manual, .dontAsk, .plan, .default]

    /// What the mode means for permission questions, in a sentence, when some or all of them
    /// will never be asked (so a client says so instead of waiting for one); `nil` for the
    /// modes that ask (`default`, `manual`) and for modes rws does not know.
    public var questionNote: String? {
        switch rawValue {
        case "auto":
            "Claude Code decides itself and asks no permission questions: a call its safety check does not clear is "
                + "denied (with a custom API endpoint the check does not run, so every such call is denied)"
        case "bypassPermissions": "every tool runs without a permission question"
        case "dontAsk": "no permission questions: a tool no rule allows is denied"
        case "acceptEdits":
            "file edits and filesystem commands such as mkdir, rm and mv in the allowed folders run without a question; "
                + "other tools still ask"
        case "plan": "Claude Code only plans: nothing that changes files runs, and no question about it is asked"
        default: nil
        }
    }
}
