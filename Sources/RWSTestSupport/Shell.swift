import Foundation

/// Runs local programs for test set-up and inspection.
public enum Shell {
    /// Runs `executable` with `arguments`; returns its stdout. Throws on a non-zero exit unless allowed.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], allowFailure: Bool = false,
        environment: [String: String]? = nil
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus != 0, !allowFailure {
            throw TestServerError.commandFailed(
                "\(executable) \(arguments.joined(separator: " ")) "
                    + "exited \(process.terminationStatus): \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }

    /// Runs `script` with /bin/sh.
    @discardableResult
    public static func sh(_ script: String, allowFailure: Bool = false) throws -> String {
        try run("/bin/sh", ["-c", script], allowFailure: allowFailure)
    }
}
