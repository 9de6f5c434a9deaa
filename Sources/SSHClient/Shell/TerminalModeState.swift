/// The terminal modes a remote program switched away from their defaults, as seen in its output:
/// what a local terminal showing that output is left with if the program never switches them
/// back (it was detached with `~.`, the link dropped, it crashed).
public struct TerminalModeState: Sendable, Equatable {
    /// How arrows, Home and End are encoded (DECCKM, private mode 1).
    public internal(set) var cursorKeys: CursorKeyMode = .normal
    /// Whether the keypad sends application sequences (`ESC =`, DECKPAM).
    public internal(set) var applicationKeypad = false
    /// Whether the cursor was hidden (`ESC [ ? 25 l`).
    public internal(set) var cursorHidden = false
    /// Whether a scrolling region was set (`ESC [ top ; bottom r`, as tmux and vim do).
    public internal(set) var scrollRegionSet = false
    /// The off-by-default DEC private modes left on, among ``TerminalModeState/trackedModes``:
    /// the alternate screen (47, 1047, 1049), mouse reporting (1000–1006, 1015), focus events
    /// (1004) and bracketed paste (2004).
    public internal(set) var privateModesOn: Set<Int> = []

    /// The off-by-default DEC private modes followed in ``privateModesOn``.
    public static let trackedModes: Set<Int> = [47, 1047, 1049, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 2004]

    /// Creates the state of a terminal at its defaults.
    public init() {}

    /// Whether everything is at its default.
    public var isDefault: Bool { self == TerminalModeState() }

    /// The bytes that switch a local terminal back from every mode left on, in an order that
    /// works: the scrolling region first (resetting it homes the cursor on the alternate
    /// screen, which is then left), the alternate screen, the input modes, attributes last.
    /// Empty when everything is at its default.
    public var restoringSequence: [UInt8] {
        guard !isDefault else { return [] }
        var text = scrollRegionSet ? "\u{1B}[r" : ""
        if let screen = [1049, 1047, 47].first(where: privateModesOn.contains) { text += "\u{1B}[?\(screen)l" }
        for mode in privateModesOn.subtracting([1049, 1047, 47]).sorted() { text += "\u{1B}[?\(mode)l" }
        if cursorKeys == .application { text += "\u{1B}[?1l" }
        if applicationKeypad { text += "\u{1B}>" }
        if cursorHidden { text += "\u{1B}[?25h" }
        return Array((text + "\u{1B}[0m").utf8)
    }
}
