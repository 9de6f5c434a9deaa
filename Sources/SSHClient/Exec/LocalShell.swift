import Foundation
import Logging
import Platform
import Synchronization

/// Runs command lines with this machine's `/bin/sh`, with the face a box has (``ScriptHost``):
/// the same ``RemoteCommand`` to stream, write to and stop, the same ``CommandResult``. For the
/// commands that work on local files the way they do on a box (`rws search --local`), and for
/// tests of what the scripts do, without a server.
package struct LocalShell: ScriptHost {
    /// Variables set over this process's environment for every command: `HOME` for a sandbox.
    package let environment: [String: String]
    package let logger: Logger

    /// A shell whose commands see this process's environment with `environment` set over it;
    /// `logger` says nothing unless given.
    package init(
        environment: [String: String] = [:], logger: Logger = Logger(label: "rws.local", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.environment = environment
        self.logger = logger
    }

    /// Runs `commandLine` to its end; `idempotent` changes nothing (no link to lose here).
    package func runCommand(_ commandLine: String, input: [UInt8], timeout: Duration?, idempotent: Bool) async throws -> CommandResult {
        let command = try startCommand(commandLine, timeout: timeout)
        async let written: Void = {
            if !input.isEmpty { try await command.write(input) }
            try await command.closeInput()
        }()
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        for try await event in command.output {
            switch event {
            case .stdout(let bytes): stdout += bytes
            case .stderr(let bytes): stderr += bytes
            }
        }
        // A command that exits without reading its input has refused none of the output.
        try? await written
        return CommandResult(stdout: stdout, stderr: stderr, status: try await command.exitStatus())
    }

    package func startCommand(_ commandLine: String, timeout: Duration?) throws -> RemoteCommand {
        try LocalProcessControl.start(commandLine, environment: environment, timeout: timeout, bufferSize: 1 << 20)
    }
}

/// A process on this machine behind a ``RemoteCommand``: `/bin/sh -c LINE` in a process group of
/// its own, so that a stop or a timeout kills everything it
/// started. Stdin is a socket, so that writing after the process is gone is an error, never SIGPIPE.
final class LocalProcessControl: CommandControl {
    private let commandLine: String
    private let input: Int32
    private let pipe = Mutex<OutputPipe?>(nil)
    private let completion: Promise<CommandResult>
    private let room = DispatchSemaphore(value: 0)
    private struct State {
        var openStreams = 2
        var status: ExitStatus?
        var inputClosed = false
        var processID: Int32?
        /// A stop decided the outcome: the end its kill brings is not a normal one.
        var stopped = false
    }
    private let state = Mutex(State())

    private init(commandLine: String, input: Int32, completion: Promise<CommandResult>) {
        self.commandLine = commandLine
        self.input = input
        self.completion = completion
    }

    // Closed only here: a write in progress holds `self`, so its descriptor cannot be another's.
    deinit { SystemCall.close(input) }

    static func start(_ commandLine: String, environment: [String: String], timeout: Duration?, bufferSize: Int) throws -> RemoteCommand {
        let (ours, theirs): (Int32, Int32)
        do {
            (ours, theirs) = try SystemCall.socketPair()
            try SystemCall.setBlocking(ours)
            try SystemCall.setBlocking(theirs)
        } catch {
            throw SSHError.channelFailed(operation: "starting /bin/sh on this machine", reason: error.reason)
        }
        let completion = Promise<CommandResult>()
        let control = LocalProcessControl(commandLine: commandLine, input: ours, completion: completion)
        let pipe = OutputPipe(
            capacity: max(1, bufferSize), resumeProducer: { [weak control] in control?.room.signal() },
            cancelCommand: { [weak control] in control?.stop(.cancelled(command: commandLine)) })
        control.pipe.withLock { $0 = pipe }
        let reportedPID = ReportedPID()
        reportedPID.record(Int(try control.launch(environment: environment, stdin: theirs, pipe: pipe)))
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.milliseconds))) { [weak control] in
                control?.stop(.timedOut(command: commandLine, after: timeout))
            }
        }
        return RemoteCommand(
            command: commandLine, output: CommandOutput(pipe: pipe, handle: control), handle: control, completion: completion,
            reportedPID: reportedPID)
    }

    /// Starts the process, its output's readers and the thread that reaps it; returns its PID.
    /// Not through Foundation's `Process`: it leaves its own sockets inheritable, and a program
    /// another thread started meanwhile held a command's descriptor (the race finder saw it).
    private func launch(environment: [String: String], stdin: Int32, pipe: OutputPipe) throws -> Int32 {
        defer { SystemCall.close(stdin) }
        let (stdout, stderr) = (try Self.outputPipe(), try Self.outputPipe())
        let processID: Int32
        do throws(SystemCallError) {
            processID = try SystemCall.spawn(
                "/bin/sh", arguments: ["-c", commandLine], environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                stdin: stdin, stdout: stdout.write.fileDescriptor, stderr: stderr.write.fileDescriptor)
        } catch {
            throw SSHError.channelFailed(operation: "starting /bin/sh on this machine", reason: error.reason)
        }
        for handle in [stdout.write, stderr.write] { try? handle.close() }
        state.withLock { $0.processID = processID }
        for (handle, isError) in [(stdout.read, false), (stderr.read, true)] {
            let reader = Thread { [self] in read(handle, isError: isError, into: pipe) }
            reader.start()
        }
        let reaper = Thread { [self] in
            do throws(SystemCallError) {
                switch try SystemCall.waitForExit(processID) {
                case .exited(let code): streamEnded(status: .exited(code))
                case .signaled(let number): streamEnded(status: .signaled(Self.signalName(number)))
                }
            } catch {
                stop(SSHError.channelFailed(operation: "waiting for \(commandLine) to end", reason: error.reason))
            }
        }
        reaper.start()
        return processID
    }

    /// One of the command's output streams: blocking, close-on-exec (the child's copy, made by
    /// `dup2`, is not).
    private static func outputPipe() throws -> (read: FileHandle, write: FileHandle) {
        do throws(SystemCallError) {
            let (read, write) = try SystemCall.pipe()
            let ends = (
                read: FileHandle(fileDescriptor: read, closeOnDealloc: true), write: FileHandle(fileDescriptor: write, closeOnDealloc: true)
            )
            try SystemCall.setBlocking(read)
            try SystemCall.setBlocking(write)
            return ends
        } catch {
            throw SSHError.channelFailed(operation: "starting /bin/sh on this machine", reason: error.reason)
        }
    }

    /// Hands one stream's output on as it comes, waiting while the reader has not made room.
    private func read(_ handle: FileHandle, isError: Bool, into pipe: OutputPipe) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            while !pipe.hasRoom() {
                if completion.isCompleted { break }
                _ = room.wait(timeout: .now() + .milliseconds(100))
            }
            // One read(2): what is there now, not a full buffer (FileHandle.read(upToCount:) waits for that).
            let chunk = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemCallError) in try SystemCall.read(handle.fileDescriptor, into: bytes) }
            }
            guard case .success(let count?) = chunk, count > 0 else { break }
            pipe.push(isError ? .stderr(Array(buffer[..<count])) : .stdout(Array(buffer[..<count])))
        }
        try? handle.close()
        streamEnded(status: nil)
    }

    /// Both streams at their end and the process gone: the command is over.
    private func streamEnded(status: ExitStatus?) {
        let (ended, stopped) = state.withLock { state -> (ExitStatus?, Bool) in
            if let status { state.status = status } else { state.openStreams -= 1 }
            return (state.openStreams == 0 ? state.status : nil, state.stopped)
        }
        guard let ended else { return }
        closeInputNow()
        guard !stopped else { return }
        completion.complete(.success(CommandResult(stdout: [], stderr: [], status: ended)))
        pipe.withLock { $0 }?.finish(.success(()))
    }

    func write(_ bytes: [UInt8]) async throws {
        guard !state.withLock({ $0.inputClosed }) else {
            throw SSHError.channelFailed(operation: "writing to \(commandLine)", reason: "its input was closed")
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async { [self] in
                var offset = 0
                do throws(SystemCallError) {
                    while offset < bytes.count {
                        let sent = bytes[offset...].withUnsafeBytes { buffer in
                            Result { () throws(SystemCallError) in try SystemCall.send(input, from: buffer) }
                        }
                        offset += try sent.get() ?? 0
                    }
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: SSHError.channelFailed(operation: "writing to \(commandLine)", reason: error.reason))
                }
            }
        }
    }

    func closeInput() async throws {
        closeInputNow()
    }

    /// EOF on the command's stdin; a write after it fails (EPIPE) instead of reaching it.
    private func closeInputNow() {
        let close = state.withLock { state -> Bool in
            defer { state.inputClosed = true }
            return !state.inputClosed
        }
        if close { try? SystemCall.shutdown(input, Int32(SHUT_WR)) }
    }

    func stop(_ reason: SSHError) {
        // Decided before the kill, whose end of the process would otherwise race this stop to the
        // outcome and end the output as if the command had ended by itself. The group lives while
        // its leader runs or a member still holds the output open; after that its number may be another's.
        let stop = state.withLock { state -> (group: Int32?, now: Bool) in
            guard !state.stopped, state.status == nil || state.openStreams > 0 else { return (nil, false) }
            state.stopped = true
            return (state.processID, true)
        }
        guard stop.now else { return }
        if let group = stop.group { try? SystemCall.kill(-group, SIGKILL) }
        completion.complete(.failure(reason))
        pipe.withLock { $0 }?.finish(.failure(reason))
        room.signal()
        room.signal()
    }

    private static func signalName(_ number: Int32) -> String {
        [1: "HUP", 2: "INT", 9: "KILL", 13: "PIPE", 15: "TERM"][number] ?? String(number)
    }
}
