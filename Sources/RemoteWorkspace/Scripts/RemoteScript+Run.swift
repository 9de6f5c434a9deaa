import SSHClient

extension CommandResult {
    /// The last line of the script's stderr ("no message" when it wrote none): the detail of
    /// every error for a status the script does not declare.
    var lastErrorLine: String {
        stderrText.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
    }
}

extension RemoteScript {
    /// Runs the script and returns its result; a non-zero exit is a ``RemoteSessionError/remoteCommandFailed(step:status:stderr:)``.
    func run(
        on host: any ScriptHost, _ arguments: [Argument], input: [UInt8] = [], timeout: Duration? = .seconds(120)
    ) async throws
        -> CommandResult
    {
        try await run(on: host, arguments, input: input, timeout: timeout, failure: failure)
    }

    /// Starts the script and returns at once; its output is read as it comes.
    func start(on host: any ScriptHost, _ arguments: [Argument], timeout: Duration? = nil) throws -> RemoteCommand {
        try host.startCommand(try commandLine(arguments), timeout: timeout)
    }

    /// Throws ``RemoteSessionError/remoteCommandFailed(step:status:stderr:)`` unless `result` is a success.
    func check(_ result: CommandResult) throws {
        guard result.status.isSuccess else { throw failure(result) }
    }

    /// What a status the script does not declare means: the step failed, with its status and stderr.
    func failure(_ result: CommandResult) -> RemoteSessionError {
        .remoteCommandFailed(step: step, status: result.status.description, stderr: result.stderrText)
    }

    /// Runs the script handing `consume` its output as it arrives (nothing is held whole); a
    /// non-zero exit is a ``RemoteSessionError/remoteCommandFailed(step:status:stderr:)``.
    /// Returns how many bytes the script wrote.
    func stream(
        on host: any ScriptHost, _ arguments: [Argument], timeout: Duration? = .seconds(600),
        into consume: ([UInt8]) throws -> Void
    ) async throws -> Int {
        let remote = try start(on: host, arguments, timeout: timeout)
        var stderr: [UInt8] = []
        var moved = 0
        do {
            for try await chunk in remote.output {
                switch chunk {
                case .stdout(let bytes):
                    moved += bytes.count
                    try consume(bytes)
                case .stderr(let bytes):
                    moved += bytes.count
                    if stderr.count < 65_536 { stderr += bytes }
                }
            }
        } catch {
            remote.cancel()
            throw error
        }
        try check(CommandResult(stdout: [], stderr: stderr, status: try await remote.exitStatus()))
        return moved
    }

    /// Runs a script whose first argument is a boundary token and splits its output into
    /// sections; the output must end with an `end` marker, or it was cut off. With
    /// `argumentsOnInput` (for a script that starts with ``RemoteScript/argumentsFromInput``) the
    /// arguments go on stdin, where a list of any length fits (an exec request carries ~35 KB,
    /// dropbear takes 9,000 bytes).
    func sections(
        on host: any ScriptHost, _ arguments: [Argument], input: [UInt8] = [], argumentsOnInput: Bool = false,
        timeout: Duration? = .seconds(120)
    )
        async throws -> (sections: [OutputSection], bytes: Int)
    {
        let boundary = SectionReader.makeBoundary()
        let all = [Argument.word(boundary)] + arguments
        let result =
            argumentsOnInput
            ? try await run(on: host, [], input: try RemoteScript.input(all), timeout: timeout)
            : try await run(on: host, all, input: input, timeout: timeout)
        var reader = SectionReader(boundary: boundary)
        var sections = reader.feed(result.stdout)
        sections += reader.finish()
        guard sections.last?.header == "end" else {
            throw RemoteSessionError.malformedOutput(step: step, reason: "the output ended before its end marker")
        }
        return (Array(sections.dropLast()), result.stdout.count + result.stderr.count)
    }
}
