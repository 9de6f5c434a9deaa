import CLibSSH2

/// A `LIBSSH2_LISTENER`: a port the server listens on for this session (`tcpip-forward`), with
/// the connections it forwarded queued by libssh2. Thin typed calls, so that no bare pointer
/// crosses files; confined to the I/O thread.
struct LibSSH2Listener {
    private let raw: OpaquePointer

    /// How many forwarded connections libssh2 queues before refusing more; the loop takes them each pass.
    static let queueSize: Int32 = 64

    /// Asks the server to listen on `host`:`port` (0: a port it picks); `.done` gives the
    /// listener and the port the server listens on. A refusal fails with `LIBSSH2_ERROR_REQUEST_DENIED`.
    static func listen(on transport: SSHTransport, host: String, port: Int) -> LibSSH2Channel.Outcome<(LibSSH2Listener, Int)> {
        var bound: Int32 = 0
        if let raw = libssh2_channel_forward_listen_ex(transport.raw, host, Int32(port), &bound, queueSize) {
            return .done((LibSSH2Listener(raw: raw), Int(bound)))
        }
        let code = transport.lastErrno
        return code == LIBSSH2_ERROR_EAGAIN ? .wouldBlock : .failed(code)
    }

    /// The next connection the server forwarded (libssh2 confirmed its channel already);
    /// `.wouldBlock` when none waits.
    func accept(_ transport: SSHTransport) -> LibSSH2Channel.Outcome<LibSSH2Channel> {
        if let channel = libssh2_channel_forward_accept(raw) { return .done(LibSSH2Channel(channel)) }
        let code = transport.lastErrno
        // "Channel not found" only says that nothing was queued.
        return code == LIBSSH2_ERROR_EAGAIN || code == LIBSSH2_ERROR_CHANNEL_UNKNOWN ? .wouldBlock : .failed(code)
    }

    /// Asks the server to stop listening (no reply is awaited) and frees the listener with the
    /// connections still queued in it.
    func cancel() -> LibSSH2Channel.Outcome<Void> {
        LibSSH2Channel.Outcome(Int(libssh2_channel_forward_cancel(raw))) { _ in () }
    }
}
