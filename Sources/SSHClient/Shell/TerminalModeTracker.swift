import Synchronization

/// Follows the remote's terminal modes (``TerminalModeState``) by scanning its output for
/// `ESC [ ? Pm h/l`, `ESC [ Pt ; Pb r`, `ESC =` and `ESC >`.
///
/// A small escape-sequence parser with state kept between chunks, so a sequence split across
/// two reads is still seen. A full reset (`ESC c`) returns every mode to its default; a soft
/// reset (`ESC [ ! p`, DECSTR) those DECSTR resets: cursor keys, keypad, cursor, scrolling region.
///
/// A ``InteractiveShell`` follows its output with one to choose the bytes of arrow keys; a terminal
/// app feeds one what it actually showed, to undo what is left on when it stops showing a
/// program early (``TerminalModeState/restoringSequence``).
public struct TerminalModeTracker: Sendable {
    private enum State { case ground, escape, csiStart, privateParameters, otherCSI, csiBang }

    /// The modes as the bytes scanned so far left them.
    public private(set) var modes = TerminalModeState()
    private var state: State = .ground
    private var parameters: [UInt8] = []

    /// The cursor-key mode seen last.
    var mode: CursorKeyMode { modes.cursorKeys }

    /// Creates a tracker for a terminal at its defaults.
    public init() {}

    /// Follows `bytes`, the next output shown.
    public mutating func scan(_ bytes: [UInt8]) {
        for byte in bytes { step(byte) }
    }

    private mutating func step(_ byte: UInt8) {
        // ESC starts over anywhere; CAN and SUB abort a sequence, as in a real terminal.
        if byte == 0x1B { return state = .escape }
        if byte == 0x18 || byte == 0x1A { return state = .ground }
        // Other C0 controls (CR, LF, BEL...) act without interrupting a sequence, as in xterm.
        if byte < 0x20 { return }
        switch state {
        case .ground:
            break
        case .escape:
            escape(byte)
        case .csiStart:
            parameters = []
            switch byte {
            case UInt8(ascii: "?"): state = .privateParameters
            case UInt8(ascii: "!"): state = .csiBang
            default: otherParameter(byte)
            }
        case .privateParameters:
            privateParameter(byte)
        case .otherCSI:
            otherParameter(byte)
        case .csiBang:
            if byte == UInt8(ascii: "p") { softReset() }
            state = Self.isFinal(byte) ? .ground : .otherCSI
        }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "c"): modes = TerminalModeState()
        case UInt8(ascii: "="): modes.applicationKeypad = true
        case UInt8(ascii: ">"): modes.applicationKeypad = false
        default: break
        }
        state = byte == UInt8(ascii: "[") ? .csiStart : .ground
    }

    private mutating func softReset() {
        modes.cursorKeys = .normal
        modes.applicationKeypad = false
        modes.cursorHidden = false
        modes.scrollRegionSet = false
    }

    /// A CSI without `?`: only `r` (DECSTBM) matters; with no or default parameters it resets.
    private mutating func otherParameter(_ byte: UInt8) {
        if (0x30...0x3F).contains(byte) {
            if parameters.count < 64 { parameters.append(byte) }
            return state = .otherCSI
        }
        guard Self.isFinal(byte) else { return state = .otherCSI }
        state = .ground
        if byte == UInt8(ascii: "r") { modes.scrollRegionSet = parameters.contains { $0 != UInt8(ascii: ";") } }
    }

    private mutating func privateParameter(_ byte: UInt8) {
        if (0x30...0x3F).contains(byte) {
            if parameters.count < 64 { parameters.append(byte) }
            return
        }
        guard Self.isFinal(byte) else { return state = .otherCSI }
        state = .ground
        guard byte == UInt8(ascii: "h") || byte == UInt8(ascii: "l") else { return }
        let on = byte == UInt8(ascii: "h")
        for field in parameters.split(separator: UInt8(ascii: ";")) {
            guard let mode = Int(String(decoding: field, as: UTF8.self)) else { continue }
            switch mode {
            case 1: modes.cursorKeys = on ? .application : .normal
            case 25: modes.cursorHidden = !on
            case _ where TerminalModeState.trackedModes.contains(mode):
                if on { modes.privateModesOn.insert(mode) } else { modes.privateModesOn.remove(mode) }
            default: break
            }
        }
    }

    private static func isFinal(_ byte: UInt8) -> Bool { (0x40...0x7E).contains(byte) }
}

/// The modes the I/O thread last saw, readable from any thread.
final class SharedTerminalModes: Sendable {
    private let modes = Mutex(TerminalModeState())

    var value: TerminalModeState {
        get { modes.withLock { $0 } }
        set { modes.withLock { $0 = newValue } }
    }
}
