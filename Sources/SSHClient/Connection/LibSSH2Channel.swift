import CLibSSH2

/// A `LIBSSH2_CHANNEL` of a nonblocking session: thin typed calls, so that no bare pointer to a
/// channel crosses files. Copying it copies the reference, not the channel; it is freed once,
/// by ``free()``, when the channel's life cycle reaches its end. Confined to the I/O thread.
struct LibSSH2Channel: Equatable {
    private let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }

    /// A channel's two output streams; they share one window, so both are always drained.
    enum Stream: Int32 {
        case stdout = 0
        /// `SSH_EXTENDED_DATA_STDERR`.
        case stderr = 1
    }

    // MARK: Opening (the session's one open in flight)

    /// Opens a `session` channel (2 MiB window, 32 KiB packets, libssh2's defaults).
    static func openSession(on transport: SSHTransport) -> LibSSH2Outcome<LibSSH2Channel> {
        opened(libssh2_channel_open_ex(transport.raw, "session", 7, 2 * 1024 * 1024, 32768, nil, 0), transport)
    }

    /// Opens a `direct-tcpip` channel to `host`:`port` through the server.
    static func openDirectTCPIP(on transport: SSHTransport, host: String, port: Int) -> LibSSH2Outcome<LibSSH2Channel> {
        opened(libssh2_channel_direct_tcpip_ex(transport.raw, host, Int32(port), "127.0.0.1", 22), transport)
    }

    /// Opens a channel of a type no server offers, with small windows: the connection's
    /// keepalive (see ``LivenessProbe``), whose refusal is the expected answer.
    static func openUnknownType(_ type: String, on transport: SSHTransport) -> LibSSH2Outcome<LibSSH2Channel> {
        opened(libssh2_channel_open_ex(transport.raw, type, UInt32(type.utf8.count), 32768, 32768, nil, 0), transport)
    }

    private static func opened(_ pointer: OpaquePointer?, _ transport: SSHTransport) -> LibSSH2Outcome<LibSSH2Channel> {
        LibSSH2Outcome(pointer, transport) { LibSSH2Channel($0) }
    }

    // MARK: Setup requests (one waiting for its reply per session)

    /// Sends one setup request; `.done` means the server accepted it.
    func send(_ request: ChannelSetupRequest) -> LibSSH2Outcome<Void> {
        let rc: Int32
        switch request {
        case .pty(let terminal, let modes, let columns, let rows):
            rc = modes.withUnsafeBufferPointer { modeBytes in
                modeBytes.withMemoryRebound(to: CChar.self) { modeChars in
                    libssh2_channel_request_pty_ex(
                        raw, terminal, UInt32(terminal.utf8.count), modeChars.baseAddress,
                        UInt32(modes.count), Int32(columns), Int32(rows), 0, 0)
                }
            }
        case .exec(let command):
            rc = libssh2_channel_process_startup(raw, "exec", 4, command, UInt32(command.utf8.count))
        case .shell:
            rc = libssh2_channel_process_startup(raw, "shell", 5, nil, 0)
        case .subsystem(let name):
            rc = libssh2_channel_process_startup(raw, "subsystem", 9, name, UInt32(name.utf8.count))
        }
        return LibSSH2Outcome(Int(rc)) { _ in }
    }

    /// Sends a window-change for a running PTY; it wants no reply, so it needs no request turn.
    func resizeTerminal(columns: Int, rows: Int) -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_channel_request_pty_size_ex(raw, Int32(columns), Int32(rows), 0, 0))) { _ in }
    }

    // MARK: Data

    /// Reads into `buffer`; `.done(0)` is the stream's end. Reading adjusts the window as it consumes.
    func read(_ stream: Stream, into buffer: UnsafeMutableRawBufferPointer) -> LibSSH2Outcome<Int> {
        let rc = libssh2_channel_read_ex(raw, stream.rawValue, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        return LibSSH2Outcome(rc) { $0 }
    }

    /// Writes as much of `bytes` to stdin as the window takes; `.done` counts the bytes taken.
    func write(_ bytes: UnsafeRawBufferPointer) -> LibSSH2Outcome<Int> {
        let rc = libssh2_channel_write_ex(raw, 0, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        return LibSSH2Outcome(rc) { $0 }
    }

    /// Sends EOF on stdin.
    func sendEOF() -> LibSSH2Outcome<Void> { LibSSH2Outcome(Int(libssh2_channel_send_eof(raw))) { _ in } }

    /// Whether libssh2 holds received, unread data for `stream`. 1.10 answers -38 ("Packet too
    /// small") instead whenever any packet shorter than 5 bytes waits in the session's queue, and
    /// it keeps every 1-byte reply to a keepalive there for good: only a positive answer is data.
    func hasQueuedData(_ stream: Stream) -> Bool { libssh2_poll_channel_read(raw, stream.rawValue) > 0 }

    /// Whether the session's packet queue holds a packet shorter than 5 bytes, as a reply to
    /// libssh2's own keepalive is (see ``hasQueuedData(_:)``): for the tests of ``LivenessProbe``.
    var sessionHoldsShortPacket: Bool { libssh2_poll_channel_read(raw, 0) == LIBSSH2_ERROR_BUFFER_TOO_SMALL }

    // MARK: Ending

    /// Whether the remote side sent EOF.
    var receivedEOF: Bool { libssh2_channel_eof(raw) != 0 }

    /// Waits for the remote CLOSE (nonblocking: `.wouldBlock` until it came).
    func waitClosed() -> LibSSH2Outcome<Void> { LibSSH2Outcome(Int(libssh2_channel_wait_closed(raw))) { _ in } }

    /// The exit status or signal; call it after the remote CLOSE (exit-status can come after EOF).
    func exitStatus(transport: SSHTransport) -> ExitStatus {
        var signal: UnsafeMutablePointer<CChar>?
        var signalLength = 0
        _ = libssh2_channel_get_exit_signal(raw, &signal, &signalLength, nil, nil, nil, nil)
        if let signal {
            defer { libssh2_free(transport.raw, signal) }
            if signalLength > 0 { return .signaled(String(cString: signal)) }
        }
        return .exited(libssh2_channel_get_exit_status(raw))
    }

    /// Closes and frees the channel; `.wouldBlock` until the remote process exited (never block on it).
    func free() -> LibSSH2Outcome<Void> { LibSSH2Outcome(Int(libssh2_channel_free(raw))) { _ in } }
}

/// A `LIBSSH2_LISTENER`: a port the server listens on for this session (`tcpip-forward`), with
/// the connections it forwarded queued by libssh2. Thin typed calls, so that no bare pointer
/// crosses files; confined to the I/O thread.
struct LibSSH2Listener {
    private let raw: OpaquePointer

    /// How many forwarded connections libssh2 queues before refusing more; the loop takes them each pass.
    static let queueSize: Int32 = 64

    /// Asks the server to listen on `host`:`port` (0: a port it picks); `.done` gives the
    /// listener and the port the server listens on. A refusal fails with `LIBSSH2_ERROR_REQUEST_DENIED`.
    static func listen(on transport: SSHTransport, host: String, port: Int) -> LibSSH2Outcome<(LibSSH2Listener, Int)> {
        var bound: Int32 = 0
        let raw = libssh2_channel_forward_listen_ex(transport.raw, host, Int32(port), &bound, queueSize)
        return LibSSH2Outcome(raw, transport) { (LibSSH2Listener(raw: $0), Int(bound)) }
    }

    /// The next connection the server forwarded (libssh2 confirmed its channel already);
    /// `.wouldBlock` when none waits.
    func accept(_ transport: SSHTransport) -> LibSSH2Outcome<LibSSH2Channel> {
        if let channel = libssh2_channel_forward_accept(raw) { return .done(LibSSH2Channel(channel)) }
        let code = transport.lastErrno
        // "Channel not found" only says that nothing was queued.
        return code == LIBSSH2_ERROR_EAGAIN || code == LIBSSH2_ERROR_CHANNEL_UNKNOWN ? .wouldBlock : .failed(code)
    }

    /// Asks the server to stop listening (no reply is awaited) and frees the listener with the
    /// connections still queued in it.
    func cancel() -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_channel_forward_cancel(raw))) { _ in () }
    }
}
