/// How the remote terminal wants arrows, Home and End encoded (DEC private mode 1, DECCKM).
public enum CursorKeyMode: Sendable, Equatable {
    /// The default: `ESC [ A` for Up.
    case normal
    /// Set by `ESC [ ? 1 h` (vim, less, some readline setups): `ESC O A` for Up.
    case application
}
