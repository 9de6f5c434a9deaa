import ArgumentParser
import Foundation
import SSHClient

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

/// Runs a command body and turns every error into one line on stderr and a documented exit code.
func runReportingErrors(_ body: () async throws -> Int32) async -> Never {
    let code: Int32
    do {
        code = try await body()
    } catch let error as CLIError {
        if case .usage(let message) = error {
            Terminal.err("rws: \(message)\nSee 'rws help' for usage.\n")
            code = ExitCode.validationFailure.rawValue
        } else {
            Terminal.err("rws: \(error.description)\n")
            if case .failed(_, let exitCode) = error { code = exitCode } else { code = RWSExitCode.failure }
        }
    } catch let error as SSHError {
        Terminal.err("rws: \(error.description)\n")
        switch error {
        case .timedOut: code = RWSExitCode.timedOut
        case .cancelled: code = RWSExitCode.interrupted
        default: code = RWSExitCode.connectionFailed
        }
    } catch {
        Terminal.err("rws: \(error)\n")
        code = RWSExitCode.failure
    }
    exit(code)
}
