import ArgumentParser
import Foundation
import Logging

/// `-v` on every command: -v info, -vv debug, -vvv trace, on stderr. Secrets are never logged.
struct LoggingOptions: ParsableArguments {
    @Flag(name: [.customShort("v"), .long], help: "Log what happens on stderr; repeat for more (-vv debug, -vvv trace).")
    var verbose: Int

    var level: Logger.Level {
        switch verbose {
        case 0: return .critical  // without -v the CLI's own one-line error is all the user sees
        case 1: return .info
        case 2: return .debug
        default: return .trace
        }
    }

    /// A logger at the chosen level writing to stderr (``TerminalLogHandler``).
    func logger(_ label: String) -> Logger {
        var logger = Logger(label: label, factory: { TerminalLogHandler(label: $0) })
        logger.logLevel = level
        return logger
    }
}
