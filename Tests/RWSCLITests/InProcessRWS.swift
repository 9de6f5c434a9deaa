import RWSTestSupport

@testable import rws

/// Runs the `rws` command line inside the test process: parsed and run as the binary would
/// (`RWS.run(_:)`), its standard output and error caught by `Terminal.capture` and its
/// environment set by `ProcessEnvironment.override`, both for this task only, so such tests run
/// side by side. Like `RWSBinary.run`, the environment is a clean one whose `HOME` is the given
/// sandbox, never the real one; standard input holds `stdin`, then ends, as a closed pipe would.
/// Commands that need a terminal or a signal spawn the binary (`RWSBinary`).
enum InProcessRWS {
    /// What a command line did: its exit code and what it wrote.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` with `environment` added to a clean environment whose `HOME` is `home`
    /// (by default a folder that does not exist: the command finds no configuration at all).
    static func run(
        _ arguments: [String], stdin: String = "", home: String = "/nonexistent/rws-test-home", environment: [String: String] = [:]
    ) async -> Outcome {
        let capture = OutputCapture(standardInput: Array(stdin.utf8))
        let clean = ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 }
        let status = await ProcessEnvironment.$override.withValue(clean) {
            await Terminal.$capture.withValue(capture) { await RWS.run(arguments) }
        }
        return Outcome(status: status, stdout: capture.standardOutput, stderr: capture.standardError)
    }
}
