import Foundation

/// Runs local programs for test set-up and inspection.
public enum Shell {
    /// Runs `executable` with `arguments`; returns its stdout. Throws on a non-zero exit unless allowed.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], allowFailure: Bool = false,
        environment: [String: String]? = nil
    ) throws -> String {
        let ended = try Spawn.capture(executable, arguments, environment: environment)
        if ended.status != 0, !allowFailure {
            throw TestServerError.commandFailed(
                "\(executable) \(arguments.joined(separator: " ")) exited \(ended.status): \(ended.stderr)")
        }
        return ended.stdout
    }

    /// Runs `script` with /bin/sh.
    @discardableResult
    public static func sh(_ script: String, allowFailure: Bool = false) throws -> String {
        try run("/bin/sh", ["-c", script], allowFailure: allowFailure)
    }
}
