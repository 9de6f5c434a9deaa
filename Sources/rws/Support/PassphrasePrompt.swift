import Foundation
import Platform
import SSHClient

/// Asks for the passphrase of an encrypted identity file on the terminal, as `ssh` does: the
/// prompt on the terminal, what is typed never echoed.
enum PassphrasePrompt {
    /// The passphrase typed for `keyPath`, read from the controlling terminal with echo off; nil
    /// without a terminal (the connection then fails saying how else to give it).
    ///
    /// - Throws: ``CLIError`` with the interrupted exit code (130) when Ctrl+C is typed instead,
    ///   once the terminal is restored.
    static func ask(for keyPath: String) throws -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { SystemCall.close(fd) }
        guard let saved = try? SystemCall.terminalSettings(fd) else { return nil }
        // No echo, no line editing, no signals: Ctrl+C is read here, so the terminal is always restored.
        var quiet = SystemCall.rawMode(of: saved)
        quiet.c_oflag = saved.c_oflag
        // Echo goes off before the prompt shows: a key typed as soon as it shows is never echoed.
        guard (try? SystemCall.setTerminalSettings(fd, quiet)) != nil else { return nil }
        Terminal.write(Array("Enter passphrase for key '\(keyPath)': ".utf8), to: fd)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var interrupted = false
        reading: while Glibc.read(fd, &byte, 1) == 1 {
            switch byte {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x04: break reading
            case 0x03:
                interrupted = true
                break reading
            case 0x7F, 0x08: if !line.isEmpty { line.removeLast() }
            default: line.append(byte)
            }
        }
        try? SystemCall.setTerminalSettings(fd, saved)
        Terminal.write(Array("\n".utf8), to: fd)
        if interrupted {
            throw CLIError.failed("interrupted at the passphrase prompt for \(keyPath); nothing was run", code: RWSExitCode.interrupted)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
