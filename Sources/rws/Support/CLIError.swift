import ArgumentParser
import Foundation
import Platform
import RemoteWorkspace
import SSHClient
import SSHConfig

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

/// Runs a command body and turns every error into one line on stderr (or, with `json`, a JSON
/// object `{"error": message, "exitCode": code, "type": "error"}` on stdout) and a documented exit code.
func runReportingErrors(json: Bool = false, _ body: () async throws -> Int32) async -> Never {
    let code: Int32
    let message: String
    do {
        exit(try await body())
    } catch let error as CLIError {
        switch error {
        case .usage(let text):
            message = text
            code = ExitCode.validationFailure.rawValue
        case .failed(let text, let exitCode):
            message = text
            code = exitCode
        }
    } catch let error as SSHConfigError {
        message = error.description
        code = error.isUsageError ? ExitCode.validationFailure.rawValue : RWSExitCode.failure
    } catch let error as RemoteSessionError {
        message = error.description
        code = error.isUsageError ? ExitCode.validationFailure.rawValue : RWSExitCode.failure
    } catch let error as SSHError {
        message = error.description
        switch error {
        case .timedOut: code = RWSExitCode.timedOut
        case .stopFailed, .stopUnverified: code = RWSExitCode.stopFailed
        case .cancelled: code = RWSExitCode.interrupted
        case .invalidArgument, .persistentShellNotFound, .commandTooLong: code = ExitCode.validationFailure.rawValue
        case .persistentShellUnavailable: code = RWSExitCode.failure
        default: code = RWSExitCode.connectionFailed
        }
    } catch {
        message = plainDescription(of: error)
        code = RWSExitCode.failure
    }
    if json {
        printJSONError(message, code: code)
    } else {
        let hint = code == ExitCode.validationFailure.rawValue ? "\nSee 'rws help' for usage." : ""
        // Messages can quote the box (remote stderr, names): shown, never obeyed by the terminal.
        Terminal.err("rws: \(message.safeText)\(hint)\n")
    }
    exit(code)
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
    let object: [String: Any] = ["error": message, "exitCode": Int(code), "type": "error"]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
}
