import Foundation
import Platform
import SSHClient

/// Facts about the local terminal that the remote one should copy.
enum LocalTerminal {
    /// The window size of `fd` in cells, or 80×24 when it cannot be read.
    static func size(of fd: Int32) -> (columns: Int, rows: Int) {
        SystemCall.windowSize(fd) ?? (80, 24)
    }

    /// The remote terminal's modes copied from the local settings, as OpenSSH does: the special
    /// characters (Ctrl+C, erase, ...) and the flags that make a terminal interactive.
    static func modes(from settings: termios) -> TerminalModes {
        var local = settings
        let characters: [(TerminalMode, Int32)] = [
            (.vintr, VINTR), (.vquit, VQUIT), (.verase, VERASE), (.vkill, VKILL), (.veof, VEOF), (.vsusp, VSUSP),
            (.vwerase, VWERASE), (.vlnext, VLNEXT), (.vreprint, VREPRINT), (.vstart, VSTART), (.vstop, VSTOP),
        ]
        let special = withUnsafeBytes(of: &local.c_cc) { cc in characters.map { ($0.0, UInt32(cc[Int($0.1)])) } }
        let flags: [(TerminalMode, tcflag_t, tcflag_t)] = [
            (.icrnl, settings.c_iflag, tcflag_t(ICRNL)), (.ixon, settings.c_iflag, tcflag_t(IXON)),
            (.iutf8, settings.c_iflag, tcflag_t(IUTF8)), (.isig, settings.c_lflag, tcflag_t(ISIG)),
            (.icanon, settings.c_lflag, tcflag_t(ICANON)), (.iexten, settings.c_lflag, tcflag_t(IEXTEN)),
            (.echo, settings.c_lflag, tcflag_t(ECHO)), (.echoe, settings.c_lflag, tcflag_t(ECHOE)),
            (.echok, settings.c_lflag, tcflag_t(ECHOK)), (.echoctl, settings.c_lflag, tcflag_t(ECHOCTL)),
            (.echoke, settings.c_lflag, tcflag_t(ECHOKE)), (.opost, settings.c_oflag, tcflag_t(OPOST)),
            (.onlcr, settings.c_oflag, tcflag_t(ONLCR)),
        ]
        return TerminalModes(special + flags.map { ($0.0, $0.1 & $0.2 != 0 ? 1 : 0) } + [(.cs8, 1)])
    }
}
