import Synchronization

/// The file operations through exec and POSIX tools, for servers without SFTP.
struct ShellFileBackend: FileBackend {
    let connection: SSHConnection

    private typealias Scripts = ShellFileScripts

    /// Runs `script` on `path` and `arguments`; a non-zero exit becomes the ``RemoteFileError`` its stderr describes.
    private func run(
        _ script: RemoteScript, _ path: String, _ arguments: [RemoteScript.Argument] = [],
        input: [UInt8] = []
    ) async throws -> [UInt8] {
        try await script.run(
            on: connection, [.path(path)] + arguments, input: input, timeout: nil,
            failure: ShellFileErrors.failure(operation: script.step, path: path)
        ).stdout
    }

    /// The read script's arguments after the path.
    private func readArguments(offset: UInt64, length: UInt64?) -> [RemoteScript.Argument] {
        [.word(String(offset + 1)), .word(length.map(String.init) ?? "")]
    }

    /// Whether exec commands run on this box (not an SFTP-only account): learned once per
    /// connection by running `printf %s "$HOME"`.
    func commandsRun() async -> Bool {
        guard let loop = try? await connection.link.usableLoop() else { return false }
        if let known = loop.files.commandsRun { return known }
        let result = try? await Scripts.home.result(on: connection, timeout: .seconds(10))
        let runs = result.map { $0.status.isSuccess && $0.stdoutText.hasPrefix("/") } ?? false
        loop.files.commandsRun = runs
        return runs
    }

    func list(_ path: String, symlinkTargets: Bool) async throws -> [ListedEntry] {
        let output = try await run(Scripts.list, path, [Scripts.flag(symlinkTargets), .word(Scripts.listBatch.body)])
        do {
            return try ShellListingParser.parse(output)
        } catch {
            throw RemoteFileError.failed(operation: "listing", path: path, reason: "unexpected output from find/stat: \(error.reason)")
        }
    }

    func stat(_ path: String, followSymlinks: Bool) async throws -> RemoteFileAttributes {
        let output = try await run(Scripts.stat, path, [Scripts.flag(followSymlinks)])
        let fields = output.split(separator: 32, maxSplits: 5, omittingEmptySubsequences: false).prefix(5)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 5, let mode = UInt32(fields[0], radix: 16), let size = UInt64(fields[1]), let uid = UInt32(fields[2]),
            let gid = UInt32(fields[3]), let mtime = Int64(fields[4])
        else {
            throw RemoteFileError.failed(operation: "stat", path: path, reason: "unexpected output from stat")
        }
        return RemoteFileAttributes(mode: mode, size: size, userID: uid, groupID: gid, modificationSeconds: mtime)
    }

    func readLink(_ path: String) async throws -> [UInt8] {
        var output = try await run(Scripts.readLink, path)
        if output.last == 10 { output.removeLast() }
        return output
    }

    func read(_ path: String, offset: UInt64, length: UInt64?) async throws -> [UInt8] {
        try await run(Scripts.read, path, readArguments(offset: offset, length: length))
    }

    func stream(_ path: String, offset: UInt64, length: UInt64?, bufferSize: Int) async throws -> RemoteFileReader {
        let line = try Scripts.read.commandLine([.path(path)] + readArguments(offset: offset, length: length))
        let command = try connection.stream(line, bufferSize: bufferSize)
        try await command.closeInput()
        return RemoteFileReader(.shell(command, path: path)) { command.cancel() }
    }

    func write(_ path: String, contents: [UInt8], permissions: UInt32) async throws {
        let arguments: [RemoteScript.Argument] = [
            .path(RemotePath.split(path).parent), .word(temporaryFileName()),
            .word(String(permissions, radix: 8)),
        ]
        _ = try await run(Scripts.write, path, arguments, input: contents)
    }

    func append(_ path: String, contents: [UInt8]) async throws {
        _ = try await run(Scripts.append, path, input: contents)
    }

    func place(_ path: String, contents: [UInt8], append: Bool, finish: PlacedFile?) async throws {
        let mode = finish.map { String($0.permissions, radix: 8) } ?? ""
        let time = finish.map { String($0.modified) } ?? ""
        _ = try await run(Scripts.place, path, [Scripts.flag(append), .word(mode), .word(time)], input: contents)
    }

    /// One command per chunk (the exec channel takes its input whole), then one for the mode and time.
    func stream(into path: String, append: Bool, finish: PlacedFile?, _ produce: (any UploadSink) async throws -> Void) async throws {
        let sink = ShellUploadSink(backend: self, path: path, append: append)
        try await produce(sink)
        try await place(path, contents: [], append: sink.hasWritten, finish: finish)
    }

    func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) async throws {
        _ = try await run(Scripts.makeDirectory, path, [.word(String(permissions, radix: 8)), Scripts.flag(intermediates)])
    }

    func remove(_ path: String) async throws {
        _ = try await run(Scripts.remove, path, [Scripts.flag(false)])
    }

    func removeRecursively(_ path: String) async throws {
        _ = try await run(Scripts.remove, path, [Scripts.flag(true)])
    }
}

/// Each chunk of a shell upload as its own `place` command: the first empties the file unless appending.
private final class ShellUploadSink: UploadSink {
    private let backend: ShellFileBackend
    private let path: String
    private let written: Mutex<Bool>

    init(backend: ShellFileBackend, path: String, append: Bool) {
        self.backend = backend
        self.path = path
        written = Mutex(append)
    }

    /// Whether a chunk went (or the file was appended to from the start).
    var hasWritten: Bool { written.withLock { $0 } }

    func push(_ chunk: [UInt8]) async throws {
        let append = written.withLock { $0 }
        try await backend.place(path, contents: chunk, append: append, finish: nil)
        written.withLock { $0 = true }
    }
}
