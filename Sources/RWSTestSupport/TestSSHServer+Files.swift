import SSHClient

extension TestSSHServer {
    /// Connects with the file calls forced onto `fileTransport`, runs `body`, and closes the
    /// connection whether `body` returned or threw.
    public func withConnection<T>(
        fileTransport: RemoteFileTransport, _ body: (SSHConnection) async throws -> T
    ) async throws -> T {
        var settings = configuration()
        settings.fileTransport = fileTransport
        return try await Self.closing(try await SSHConnection.connect(settings), body)
    }

    /// Runs `body` with `connection`, then closes it whether `body` returned or threw.
    public static func closing<T>(_ connection: SSHConnection, _ body: (SSHConnection) async throws -> T) async throws -> T {
        do {
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }
}
