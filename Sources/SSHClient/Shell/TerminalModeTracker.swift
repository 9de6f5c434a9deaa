import Synchronization

/// How the remote terminal wants arrows, Home and End encoded (DEC private mode 1, DECCKM).
public enum CursorKeyMode: Sendable, Equatable {
    /// The default: `ESC [ A` for Up.
    case normal
    /// Set by `ESC [ ? 1 h` (vim, less, some readline setups): `ESC O A` for Up.
    case application
}

/// Follows the remote's cursor-key mode by scanning its output for `ESC [ ? ... 1 ... h/l`.
///
/// A small escape-sequence parser with state kept between chunks, so a sequence split across
/// two reads is still seen. A full reset (`ESC c`) or soft reset (`ESC [ ! p`) returns to normal.
struct CursorKeyModeTracker {
    private enum State { case ground, escape, csiStart, privateParameters, otherCSI, csiBang }

    private(set) var mode: CursorKeyMode = .normal
    private var state: State = .ground
    private var parameters: [UInt8] = []

    mutating func scan(_ bytes: [UInt8]) {
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
            if byte == UInt8(ascii: "c") { mode = .normal }
            state = byte == UInt8(ascii: "[") ? .csiStart : .ground
        case .csiStart:
            parameters = []
            switch byte {
            case UInt8(ascii: "?"): state = .privateParameters
            case UInt8(ascii: "!"): state = .csiBang
            default: state = Self.isFinal(byte) ? .ground : .otherCSI
            }
        case .privateParameters:
            privateParameter(byte)
        case .otherCSI:
            if Self.isFinal(byte) { state = .ground }
        case .csiBang:
            if byte == UInt8(ascii: "p") { mode = .normal }
            state = Self.isFinal(byte) ? .ground : .otherCSI
        }
    }

    private mutating func privateParameter(_ byte: UInt8) {
        if (0x30...0x3F).contains(byte) {
            if parameters.count < 64 { parameters.append(byte) }
            return
        }
        guard Self.isFinal(byte) else { return state = .otherCSI }
        state = .ground
        let setsMode1 = parameters.split(separator: UInt8(ascii: ";")).contains { Array($0) == [UInt8(ascii: "1")] }
        guard setsMode1 else { return }
        if byte == UInt8(ascii: "h") { mode = .application }
        if byte == UInt8(ascii: "l") { mode = .normal }
    }

    private static func isFinal(_ byte: UInt8) -> Bool { (0x40...0x7E).contains(byte) }
}

/// The mode the I/O thread last saw, readable from any thread.
final class SharedCursorKeyMode: Sendable {
    private let mode = Mutex<CursorKeyMode>(.normal)

    var value: CursorKeyMode {
        get { mode.withLock { $0 } }
        set { mode.withLock { $0 = newValue } }
    }
}
