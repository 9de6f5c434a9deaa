import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient
import SSHConfig
import Testing

@testable import rws

/// Every error a command can end with is said in one line and exits with the code docs/cli.md
/// documents, found by one cast (`ReportableError`); run in-process, a command ends by throwing
/// `ExitCode` instead of exiting the process.
@Suite struct ErrorReportingTests {
    @Test func eachAreasErrorsExitWithTheirDocumentedCodes() {
        let cases: [(any Error, Int32)] = [
            (CLIError.usage("bad"), 64),
            (CLIError.failed("broke", code: 66), 66),
            (ProjectError.invalidName("a/b", reason: "a slash"), 64),
            (ProjectError.cancelled(url: "https://example.com/r.git"), 130),
            (ProjectError.gitMissing, 69),
            (ProjectError.authenticationRequired(url: "https://example.com/r.git", detail: "401"), 77),
            (ProjectError.cloneFailed(url: "https://example.com/r.git", status: "128", detail: "fatal"), 1),
            (ReviewError.invalidPath("../x", reason: "outside"), 64),
            (ReviewError.directoryNotFound(path: "/w/app"), 66),
            (ReviewError.notARepository(path: "/w/app"), 66),
            (ReviewError.gitMissing, 69),
            (ReviewError.authenticationRequired(remote: "origin", detail: "401"), 77),
            (ReviewError.malformedOutput(step: "status", reason: "no header"), 70),
            (ReviewError.nothingToCommit(path: "/w/app"), 1),
            (ReviewError.gitFailed(operation: "push", status: "1", detail: "rejected"), 1),
            (RemoteSessionError.invalidName("x y", reason: "a space"), 64),
            (SSHConfigError.missingHost, 64),
            (SSHError.timedOut(command: "sleep 9", after: .seconds(1)), 124),
            (SSHError.cancelled(command: "sleep 9"), 130),
            (SSHError.commandTooLong(length: 40_000, limit: 35_000), 64),
            (SSHError.connectionLost(reason: "reset"), 255),
        ]
        for (error, code) in cases {
            let (message, reported) = report(error)
            #expect(reported == code, "\(error)")
            #expect(message == String(describing: error), "\(error)")
        }
    }

    @Test func anErrorRwsDoesNotKnowIsALocalFailureInRwsWords() {
        let (message, code) = report(CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/nowhere"]))
        #expect(code == 1)
        #expect(message.hasPrefix("a local file operation failed: "), "\(message)")
        #expect(!message.contains("The file") && !message.contains("couldn’t"), "\(message)")
    }

    @Test func aCommandRunInProcessEndsByThrowingItsExitCode() async throws {
        let capture = OutputCapture()
        try await Terminal.$capture.withValue(capture) {
            try await runReportingErrors { 0 }
            await #expect(throws: ExitCode(3)) { try await runReportingErrors { 3 } }
            await #expect(throws: ExitCode(64)) { try await runReportingErrors(json: true) { throw CLIError.usage("no") } }
            await #expect(throws: ExitCode(255)) {
                try await runReportingErrors { throw SSHError.connectionLost(reason: "reset") }
            }
        }
        #expect(capture.standardOutput == #"{"error":"no","exitCode":64,"type":"error"}"# + "\n")
        #expect(capture.standardError == "rws: connection lost: reset\n", "\(capture.standardError)")
    }
}
