/// Choosing a connection's file transport, and turning caller paths into transport paths.
extension SSHConnection {
    enum SelectedBackend {
        case sftp(SFTPFileBackend)
        case shell(ShellFileBackend)
    }

    /// The backend for this connection: decided once, by configuration or by whether the server
    /// runs the SFTP subsystem.
    func fileBackend() async throws -> SelectedBackend {
        let loop = try await link.usableLoop()
        let shell = ShellFileBackend(connection: self)
        let sftp = SFTPFileBackend(loop: loop, shell: shell)
        switch loop.files.decision {
        case .sftp?: return .sftp(sftp)
        case .shell?: return .shell(shell)
        case nil: break
        }
        switch configuration.fileTransport {
        case .shell:
            loop.files.decision = .shell
            return .shell(shell)
        case .sftp:
            try await sftp.open()
        case .automatic:
            do {
                try await sftp.open()
            } catch RemoteFileError.sftpUnavailable {
                loop.files.decision = .shell
                return .shell(shell)
            }
        }
        loop.files.decision = .sftp
        return .sftp(sftp)
    }

    /// Runs `body` with the backend and `path` as that backend takes it; errors name `path` as given.
    /// `idempotent` reads are retried over the next link when the connection was lost and reconnects.
    /// `commandsOnASlowLink`: on a link slower than ``slowLinkRoundTrip``, the exec fallback serves
    /// the call where commands run, whatever the transport chosen.
    func withFileBackend<T>(
        _ path: String, idempotent: Bool = false, commandsOnASlowLink: Bool = false,
        _ body: (any FileBackend, String) async throws -> T
    ) async throws -> T {
        try await retryingAfterReconnect(idempotent: idempotent) {
            try await withFileBackendOnce(path, commandsOnASlowLink: commandsOnASlowLink, body)
        }
    }

    /// The round trip from which a directory is listed by one command rather than over SFTP:
    /// the command takes two round trips (channel open, then its output), SFTP at least three
    /// (open, read, close) and one more per hundred names, and its session's start three more.
    static let slowLinkRoundTrip = Duration.milliseconds(50)

    private func withFileBackendOnce<T>(
        _ path: String, commandsOnASlowLink: Bool, _ body: (any FileBackend, String) async throws -> T
    ) async throws -> T {
        let normalized = try RemotePath.normalized(path)
        let backend: any FileBackend
        var remotePath = normalized
        if commandsOnASlowLink, let shell = await commandsServingASlowLink() {
            backend = shell
        } else {
            switch try await fileBackend() {
            case .shell(let shell):
                backend = shell
            case .sftp(let sftp):
                backend = sftp
                if RemotePath.isHomeRelative(normalized) { remotePath = RemotePath.resolved(normalized, home: try await home(sftp)) }
            }
        }
        do {
            return try await body(backend, remotePath)
        } catch let error as RemoteFileError {
            throw error.replacingPathPrefix(remotePath, with: path)
        }
    }

    /// The exec fallback where the transport is chosen automatically, the link is slow
    /// (``linkIsSlow(_:)``) and commands run; else nil.
    private func commandsServingASlowLink() async -> ShellFileBackend? {
        guard configuration.fileTransport == .automatic, let loop = try? await link.usableLoop(), await linkIsSlow(loop) else {
            return nil
        }
        let shell = ShellFileBackend(connection: self)
        return await shell.commandsRun() ? shell : nil
    }

    /// Whether the link's round trip is ``slowLinkRoundTrip`` or more, learned once per
    /// connection. Half the handshake bounds it from above, and where that bound is below the
    /// line nothing more is sent; else one keepalive probe times it, since the handshake also
    /// waited for the box to start the session's process, which a busy box makes long (143 ms
    /// seen on loopback beside the test suite). A slow probe is timed again and the faster
    /// counts: one stall of a busy machine can make a loopback link look slow, and listings by
    /// command side by side are what dropbear's abort on concurrent commands needs.
    private func linkIsSlow(_ loop: ConnectionLoop) async -> Bool {
        if let known = loop.files.linkIsSlow { return known }
        var slow = false
        if let bound = loop.roundTripBound, bound >= Self.slowLinkRoundTrip, var probed = try? await probeRoundTrip() {
            if probed >= Self.slowLinkRoundTrip, let again = try? await probeRoundTrip() { probed = min(probed, again) }
            slow = probed >= Self.slowLinkRoundTrip
            let milliseconds = { (duration: Duration) in duration.formatted(.units(allowed: [.milliseconds])) }
            let choice = slow ? "by exec, not SFTP" : "SFTP"
            configuration.logger.debug("\(choice): a round trip took \(milliseconds(probed)) (half the handshake: \(milliseconds(bound)))")
        }
        loop.files.linkIsSlow = slow
        return slow
    }

    /// The remote home: `$HOME` of a remote shell, as the shell fallback and ``ShellQuoting/quotePath(_:)``
    /// see it; SFTP's login directory when commands cannot run.
    private func home(_ sftp: SFTPFileBackend) async throws -> String {
        if let home = sftp.loop.files.home { return home }
        var home = ""
        if let result = try? await ShellFileScripts.home.result(on: self, timeout: nil), result.status.isSuccess {
            home = result.stdoutText
        }
        sftp.loop.files.commandsRun = home.hasPrefix("/")
        if !home.hasPrefix("/") { home = try await sftp.realPath(".") }
        sftp.loop.files.home = home
        return home
    }
}

extension RemoteFileError {
    /// The error with a path that starts with `old` rewritten to start with `new`.
    func replacingPathPrefix(_ old: String, with new: String) -> RemoteFileError {
        func rewrite(_ path: String) -> String {
            guard old != new, path.hasPrefix(old) else { return path }
            return new + path.dropFirst(old.count)
        }
        switch self {
        case .noSuchFile(let path): return .noSuchFile(path: rewrite(path))
        case .permissionDenied(let path): return .permissionDenied(path: rewrite(path))
        case .notADirectory(let path): return .notADirectory(path: rewrite(path))
        case .isADirectory(let path): return .isADirectory(path: rewrite(path))
        case .alreadyExists(let path): return .alreadyExists(path: rewrite(path))
        case .directoryNotEmpty(let path): return .directoryNotEmpty(path: rewrite(path))
        case .toolMissing(let tool, let path): return .toolMissing(tool: tool, path: rewrite(path))
        case .failed(let operation, let path, let reason): return .failed(operation: operation, path: rewrite(path), reason: reason)
        case .sftpUnavailable: return self
        }
    }
}
