import ArgumentParser
import Foundation
import Platform
import SSHClient
import SessionHistory

/// Failures the CLI reports itself, each one line saying what to do.
enum CLIError: Error, CustomStringConvertible {
    /// The command line is wrong.
    case usage(String)
    /// Something failed; exit with `code`.
    case failed(String, code: Int32)

    var description: String {
        switch self {
        case .usage(let message), .failed(let message, _): return message
        }
    }
}

/// An error the CLI reports as one line and a documented exit code (docs/cli.md), 64 when the
/// command line is wrong. Every error type rws knows conforms (below, and in each area's
/// `…ErrorReporting.swift`), so reporting is one cast.
protocol ReportableError: Error {
    /// The line shown after `rws: `.
    var message: String { get }
    /// The exit code: 64 (`ExitCode.validationFailure`) when the command line is wrong.
    var exitCode: Int32 { get }
}

extension CLIError: ReportableError {
    var message: String { description }
    var exitCode: Int32 {
        switch self {
        case .usage: return ExitCode.validationFailure.rawValue
        case .failed(_, let code): return code
        }
    }
}

extension SSHError: ReportableError {
    var message: String { description }
    var exitCode: Int32 {
        switch self {
        case .timedOut: return RWSExitCode.timedOut
        case .stopFailed, .stopUnverified: return RWSExitCode.stopFailed
        case .cancelled: return RWSExitCode.interrupted
        case .invalidArgument, .persistentShellNotFound, .commandTooLong: return ExitCode.validationFailure.rawValue
        case .persistentShellUnavailable: return RWSExitCode.failure
        case .boxOutOfDescriptors: return RWSExitCode.osError
        default: return RWSExitCode.connectionFailed
        }
    }
}

/// Runs a command body and turns every error into one line on stderr (or, with `json`, a JSON
/// object `{"error": message, "exitCode": code, "type": "error"}` on stdout), then throws
/// `ExitCode` for a code other than 0, the body's own or the error's: ``RWS/run(_:)`` returns
/// it and only `RWS.main` exits. That is safe because a connection's `close()` joins its I/O
/// thread (an exit racing that thread's last OpenSSL teardown was a double free seen once in CI).
func runReportingErrors(json: Bool = false, _ body: () async throws -> Int32) async throws {
    let code: Int32
    do {
        code = try await body()
    } catch {
        let (message, errorCode) = report(error)
        code = errorCode
        if json {
            printJSONError(message, code: code)
        } else {
            let hint = code == ExitCode.validationFailure.rawValue ? "\nSee 'rws help' for usage." : ""
            // Messages can quote the box (remote stderr, names): shown, never obeyed by the terminal.
            Terminal.err("rws: \(message.safeText)\(hint)\n")
        }
    }
    if code != 0 { throw ExitCode(code) }
}

/// What is said for `error` and its exit code: its own, or a local failure (1) in rws's words.
func report(_ error: any Error) -> (message: String, code: Int32) {
    if let error = error as? any ReportableError { return (error.message, error.exitCode) }
    return (plainDescription(of: error), RWSExitCode.failure)
}

/// An error's own description; a Foundation file error that reaches this far is said in the C
/// library's words (`strerror`), never in Foundation's.
func plainDescription(of error: any Error) -> String {
    let domain = (error as NSError).domain
    guard error is CocoaError || domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain else { return String(describing: error) }
    return "a local file operation failed: " + SystemCallError("file operation", describing: error).reason
}

/// The error object of a `--json` command line, on stdout: `{"error": message, "exitCode": code, "type": "error"}`
/// (`type` as in the event lines of `rws ask --json`, so one test finds every error).
func printJSONError(_ message: String, code: Int32) {
    let object = JSONValue.object(["error": .string(message), "exitCode": .number(Double(code)), "type": .string("error")])
    Terminal.out(JSONWriter.string(from: object) + "\n")
}
