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

    /// Throws ``RemoteSessionError/remoteCommandFailed(step:status:stderr:)`` unless `result` is a
    /// success (`SSHError.boxOutOfDescriptors` when the box's shell could not open a file).
    func check(_ result: CommandResult) throws {
        if let error = outOfDescriptors(result) { throw error }
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
        let read: (bytes: Int, stderr: [UInt8])
        do {
            read = try await Self.drain(remote, stdout: consume)
        } catch {
            remote.cancel()
            throw error
        }
        try check(CommandResult(stdout: [], stderr: read.stderr, status: try await remote.exitStatus()))
        return read.bytes
    }

    /// Reads `remote`'s output to its end, handing `consume` its stdout as it arrives; returns
    /// the bytes received (stdout and stderr) and the first 64 KiB or so of its stderr.
    private static func drain(
        _ remote: RemoteCommand, stdout consume: ([UInt8]) throws -> Void
    ) async throws -> (bytes: Int, stderr: [UInt8]) {
        var stderr: [UInt8] = []
        var bytes = 0
        for try await chunk in remote.output {
            switch chunk {
            case .stdout(let piece):
                bytes += piece.count
                try consume(piece)
            case .stderr(let piece):
                bytes += piece.count
                if stderr.count < 65_536 { stderr += piece }
            }
        }
        return (bytes, stderr)
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

    /// Runs a script like ``sections(on:_:input:argumentsOnInput:timeout:)`` and hands `body` the
    /// sections before the one whose header's first word is `marker`, with that header, as soon
    /// as it arrives, while the rest is read beside it: the caller works on the first part while
    /// the script still works on the second. Returns what `body` returned, the sections after the
    /// marker (without `end`) and the bytes received. When `body` throws, the script is stopped.
    ///
    /// The end of stdin comes only after `body` returned. A script that reads exactly its
    /// `input` (`head -c` of a length it is given: `cat` would wait for the end) and waits for
    /// the end of its input before it exits (`cat >/dev/null`) thus never exits while `body` sets
    /// up other channels: dropbear 2022.83 drops the whole connection when a channel's process
    /// exits while another channel is being set up (mkj/dropbear#321). A script that does not
    /// wait must tell `body` so in its marker, and `body` then opens no channel.
    func sections<T>(
        on host: any ScriptHost, _ arguments: [Argument], input: [UInt8], splitAt marker: String,
        timeout: Duration? = .seconds(120), whileTheRestArrives body: (_ first: [OutputSection], _ marker: String) async throws -> T
    ) async throws -> (value: T, rest: [OutputSection], bytes: Int) {
        let boundary = SectionReader.makeBoundary()
        let remote = try start(on: host, [Argument.word(boundary)] + arguments, timeout: timeout)
        let (split, splitArrived) = AsyncStream<(sections: [OutputSection], marker: String)>.makeStream()
        // Nothing to write is not written: a script that ends at once has closed its input by then.
        async let written: Void = input.isEmpty ? () : remote.write(input)
        async let read = Self.readSections(of: remote, boundary: boundary, marker: marker, split: splitArrived)
        var first: (sections: [OutputSection], marker: String)?
        for await part in split { first = part }
        guard let first else {
            let stderr = try await read.stderr
            try? await written
            try check(CommandResult(stdout: [], stderr: stderr, status: try await remote.exitStatus()))
            throw RemoteSessionError.malformedOutput(step: step, reason: "the output ended before its \(marker) marker")
        }
        let value = try await body(first.sections, first.marker)
        // A script that failed before it read its input says why, not the write it refused; its
        // input is closed all the same, so that a script still waiting for its end is not left waiting.
        var writeFailure: (any Error)?
        do { try await written } catch { writeFailure = error }
        do { try await remote.closeInput() } catch { if writeFailure == nil { throw error } }
        let (rest, bytes, stderr) = try await read
        try check(CommandResult(stdout: [], stderr: stderr, status: try await remote.exitStatus()))
        if let writeFailure { throw writeFailure }
        guard rest.last?.header == "end" else {
            throw RemoteSessionError.malformedOutput(step: step, reason: "the output ended before its end marker")
        }
        return (value, Array(rest.dropLast()), bytes)
    }

    /// Reads `remote`'s output into sections; yields those before `marker` once it opens, and
    /// returns the rest (from the one after the marker), the bytes received and the stderr.
    private static func readSections(
        of remote: RemoteCommand, boundary: String, marker: String,
        split: AsyncStream<(sections: [OutputSection], marker: String)>.Continuation
    ) async throws -> (rest: [OutputSection], bytes: Int, stderr: [UInt8]) {
        defer { split.finish() }
        var reader = SectionReader(boundary: boundary)
        // Before the split: every section so far; after it: the marker's (empty) section, then the rest.
        var sections: [OutputSection] = []
        var didSplit = false
        let isMarker = { (header: String) in header == marker || header.hasPrefix(marker + " ") }
        func splitIfOpened() {
            guard !didSplit,
                let index = sections.firstIndex(where: { isMarker($0.header) })
                    ?? (reader.openHeader.map(isMarker) == true ? sections.count : nil)
            else { return }
            didSplit = true
            split.yield((Array(sections[..<index]), index < sections.count ? sections[index].header : reader.openHeader ?? marker))
            split.finish()
            sections.removeSubrange(..<index)
        }
        let (bytes, stderr) = try await drain(remote) { chunk in
            sections += reader.feed(chunk)
            splitIfOpened()
        }
        sections += reader.finish()
        splitIfOpened()
        return (didSplit ? Array(sections.dropFirst()) : [], bytes, stderr)
    }
}
