@testable import rws

/// Runs the `rws` command line inside the test process: parsed and run as the binary would
/// (`RWS.run(_:)`), its standard output and error caught by `Terminal.capture` for this task only,
/// so such tests run side by side. For commands that need no environment of their own
/// (`HOME`, `RWS_*`): those spawn the binary (`RWSBinary`).
enum InProcessRWS {
    /// What a command line did: its exit code and what it wrote.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) async -> Outcome {
        let capture = OutputCapture()
        let status = await Terminal.$capture.withValue(capture) { await RWS.run(arguments) }
        return Outcome(status: status, stdout: capture.standardOutput, stderr: capture.standardError)
    }
}
