/// The file operations through exec and POSIX tools, for servers without SFTP.
struct ShellFileBackend: FileBackend {
    let connection: SSHConnection

    /// The command line running `script` with `/bin/sh`, whatever the user's login shell is.
    private func commandLine(_ script: String) throws -> String {
        "exec /bin/sh -c " + (try ShellQuoting.quote(script))
    }

    /// Runs `script`; a non-zero exit becomes the ``RemoteFileError`` its stderr describes.
    private func run(_ script: String, input: [UInt8] = [], operation: String, path: String) async throws -> [UInt8] {
        let result = try await connection.run(try commandLine(script), input: input)
        guard result.status == .exited(0) else {
            throw ShellFileErrors.error(stderr: result.stderr, status: result.status, operation: operation, path: path)
        }
        return result.stdout
    }

    func list(_ path: String, symlinkTargets: Bool) async throws -> [ListedEntry] {
        let output = try await run(try ShellFileScripts.list(path, symlinkTargets: symlinkTargets), operation: "listing", path: path)
        do {
            return try ShellListingParser.parse(output)
        } catch {
            throw RemoteFileError.failed(operation: "listing", path: path, reason: "unexpected output from find/stat: \(error.reason)")
        }
    }

    func stat(_ path: String, followSymlinks: Bool) async throws -> RemoteFileAttributes {
        let output = try await run(try ShellFileScripts.stat(path, followSymlinks: followSymlinks), operation: "stat", path: path)
        let fields = output.split(separator: 32, maxSplits: 5, omittingEmptySubsequences: false).prefix(5)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 5, let mode = UInt32(fields[0], radix: 16), let size = UInt64(fields[1]), let uid = UInt32(fields[2]),
              let gid = UInt32(fields[3]), let mtime = Int64(fields[4]) else {
            throw RemoteFileError.failed(operation: "stat", path: path, reason: "unexpected output from stat")
        }
        return RemoteFileAttributes(mode: mode, size: size, userID: uid, groupID: gid, modificationSeconds: mtime)
    }

    func readLink(_ path: String) async throws -> [UInt8] {
        var output = try await run(try ShellFileScripts.readLink(path), operation: "reading the link", path: path)
        if output.last == 10 { output.removeLast() }
        return output
    }

    func read(_ path: String, offset: UInt64, length: UInt64?) async throws -> [UInt8] {
        try await run(try ShellFileScripts.read(path, offset: offset, length: length), operation: "reading", path: path)
    }

    func stream(_ path: String, offset: UInt64, length: UInt64?, bufferSize: Int) async throws -> RemoteFileReader {
        let script = try ShellFileScripts.read(path, offset: offset, length: length)
        let command = try connection.stream(try commandLine(script), bufferSize: bufferSize)
        try await command.closeInput()
        return RemoteFileReader(.shell(command, path: path)) { command.cancel() }
    }

    func write(_ path: String, contents: [UInt8], permissions: UInt32) async throws {
        let script = try ShellFileScripts.write(path, permissions: permissions, temporaryName: temporaryFileName())
        _ = try await run(script, input: contents, operation: "writing", path: path)
    }

    func append(_ path: String, contents: [UInt8]) async throws {
        _ = try await run(try ShellFileScripts.append(path), input: contents, operation: "appending to", path: path)
    }

    func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) async throws {
        let script = try ShellFileScripts.makeDirectory(path, intermediates: intermediates, permissions: permissions)
        _ = try await run(script, operation: "creating the directory", path: path)
    }

    func remove(_ path: String) async throws {
        _ = try await run(try ShellFileScripts.remove(path, recursively: false), operation: "removing", path: path)
    }

    func removeRecursively(_ path: String) async throws {
        _ = try await run(try ShellFileScripts.remove(path, recursively: true), operation: "removing", path: path)
    }
}
