import Foundation
import SSHClient
import Synchronization

/// Runs a remote script's command line with this machine's `/bin/sh`, for the commands that
/// work on local files the way they do on a box (`rws search --local`).
enum LocalScriptRunner {
    /// Runs `commandLine` (from ``RemoteScript/commandLine(_:shell:)``) and waits for it.
    static func run(_ commandLine: String) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", commandLine]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw RemoteSessionError.remoteCommandFailed(step: "running /bin/sh on this machine", status: "not started", stderr: "\(error)")
        }
        // Stderr is drained beside stdout so that neither pipe fills up and stalls the script.
        let stderrBytes = Mutex<[UInt8]?>(nil)
        let drained = DispatchSemaphore(value: 0)
        let drain = Thread {
            let bytes = Array(errors.fileHandleForReading.readDataToEndOfFile())
            stderrBytes.withLock { $0 = bytes }
            drained.signal()
        }
        drain.start()
        let stdout = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        drained.wait()
        let stderr = stderrBytes.withLock { $0 ?? [] }
        let status: ExitStatus =
            process.terminationReason == .uncaughtSignal
            ? .signaled(String(process.terminationStatus)) : .exited(process.terminationStatus)
        return CommandResult(stdout: stdout, stderr: stderr, status: status)
    }
}
