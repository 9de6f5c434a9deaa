/// A key a phone keyboard lacks, turned into the bytes an xterm sends for it.
///
/// Arrows, Home and End depend on the remote's cursor-key mode (``CursorKeyMode``): programs
/// such as vim and less switch it to application mode with `ESC [ ? 1 h`, and then expect
/// `ESC O A` instead of `ESC [ A` for Up. ``InteractiveShell`` tracks that mode from the output and
/// picks the right bytes. docs/shell.md has the full table.
public enum Key: Sendable, Hashable {
    /// Ctrl plus a letter (`a`–`z`, either case) or one of `@ [ \ ] ^ _`: bytes 0x00–0x1F.
    case ctrl(Character)
    /// Tab: 0x09.
    case tab
    /// Shift+Tab (back tab): `ESC [ Z`.
    case shiftTab
    /// Escape: 0x1B.
    case escape
    /// Enter (Return): carriage return 0x0D, as a terminal sends it.
    case enter
    /// Backspace: DEL 0x7F, the erase character of the default terminal modes.
    case backspace
    /// Delete (forward delete): `ESC [ 3 ~`.
    case delete
    /// Insert: `ESC [ 2 ~`.
    case insert
    /// Up arrow: `ESC [ A`, or `ESC O A` in application cursor mode.
    case up
    /// Down arrow: `ESC [ B`, or `ESC O B` in application cursor mode.
    case down
    /// Right arrow: `ESC [ C`, or `ESC O C` in application cursor mode.
    case right
    /// Left arrow: `ESC [ D`, or `ESC O D` in application cursor mode.
    case left
    /// Home: `ESC [ H`, or `ESC O H` in application cursor mode.
    case home
    /// End: `ESC [ F`, or `ESC O F` in application cursor mode.
    case end
    /// Page Up: `ESC [ 5 ~`.
    case pageUp
    /// Page Down: `ESC [ 6 ~`.
    case pageDown
    /// Function key F1–F12.
    case function(Int)
    /// A printable character, sent as UTF-8 (useful with ``alt(_:)``).
    case character(Character)
    /// Alt (Meta) plus a key: ESC followed by the key's bytes, as xterm's metaSendsEscape.
    indirect case alt(Key)

    /// The bytes this key sends when the remote's cursor keys are in `mode`.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for a Ctrl combination or function key that
    ///   has no byte sequence (`Ctrl+1`, `F13`).
    public func bytes(cursorKeys mode: CursorKeyMode = .normal) throws(SSHError) -> [UInt8] {
        switch self {
        case .ctrl(let character): return [try Self.controlByte(for: character)]
        case .tab: return [0x09]
        case .shiftTab: return csi("Z")
        case .escape: return [0x1B]
        case .enter: return [0x0D]
        case .backspace: return [0x7F]
        case .delete: return csi("3~")
        case .insert: return csi("2~")
        case .up: return cursor("A", mode)
        case .down: return cursor("B", mode)
        case .right: return cursor("C", mode)
        case .left: return cursor("D", mode)
        case .home: return cursor("H", mode)
        case .end: return cursor("F", mode)
        case .pageUp: return csi("5~")
        case .pageDown: return csi("6~")
        case .function(let number): return try Self.functionKey(number)
        case .character(let character): return Array(String(character).utf8)
        case .alt(let key): return [0x1B] + (try key.bytes(cursorKeys: mode))
        }
    }

    private func csi(_ tail: String) -> [UInt8] { [0x1B, UInt8(ascii: "[")] + Array(tail.utf8) }

    private func cursor(_ final: Character, _ mode: CursorKeyMode) -> [UInt8] {
        [0x1B, UInt8(ascii: mode == .application ? "O" : "["), final.asciiValue!]
    }

    private static func controlByte(for character: Character) throws(SSHError) -> UInt8 {
        guard let ascii = character.asciiValue else { throw invalidControl(character) }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return ascii - UInt8(ascii: "a") + 1
        // "@", "A"–"Z", "[", "\", "]", "^", "_" are 0x40–0x5F: Ctrl clears bit 6.
        case 0x40...0x5F: return ascii & 0x1F
        default: throw invalidControl(character)
        }
    }

    private static func invalidControl(_ character: Character) -> SSHError {
        .invalidArgument("Ctrl+\(character) has no control character: use a letter or one of @ [ \\ ] ^ _")
    }

    /// xterm's codes: F1–F4 are SS3 sequences, F5–F12 numbered with gaps (16 and 22 are unused).
    private static func functionKey(_ number: Int) throws(SSHError) -> [UInt8] {
        let ss3: [Int: String] = [1: "P", 2: "Q", 3: "R", 4: "S"]
        let numbered: [Int: String] = [5: "15", 6: "17", 7: "18", 8: "19", 9: "20", 10: "21", 11: "23", 12: "24"]
        if let final = ss3[number] { return [0x1B, UInt8(ascii: "O")] + Array(final.utf8) }
        if let code = numbered[number] { return [0x1B, UInt8(ascii: "[")] + Array((code + "~").utf8) }
        throw .invalidArgument("F\(number) is not a function key rws sends: use F1–F12")
    }
}
