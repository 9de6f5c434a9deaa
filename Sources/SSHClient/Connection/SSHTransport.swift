import CLibSSH2
import Foundation
import Platform

/// `libssh2_init` is not thread-safe: it runs exactly once, before the first session.
private let libssh2Initialized: Bool = libssh2_init(0) == 0

/// What the C callbacks of one session reach through libssh2's `abstract` pointer.
final class TransportContext {
    /// When bytes last arrived from the server; dead-peer detection reads it.
    var lastReceive = ContinuousClock.now
    /// Whether every receive is acknowledged at once (jump connections; see ``acknowledgeAtOnce(_:)``).
    var quickAcknowledgement = false
    /// Answers keyboard-interactive prompts while that method runs.
    var keyboardInteractive: (@Sendable (KeyboardInteractiveChallenge) -> [String])?
}

/// A `LIBSSH2_SESSION` in nonblocking mode. Confined to the connection's I/O thread.
final class SSHTransport {
    let raw: OpaquePointer
    let context: TransportContext
    private let contextPointer: UnsafeMutableRawPointer

    init() throws(SSHError) {
        guard libssh2Initialized else { throw .libssh2(operation: "libssh2_init", code: -1, message: "initialisation failed") }
        context = TransportContext()
        contextPointer = Unmanaged.passRetained(context).toOpaque()
        guard let transport = libssh2_session_init_ex(nil, nil, nil, contextPointer) else {
            Unmanaged<TransportContext>.fromOpaque(contextPointer).release()
            throw .libssh2(operation: "libssh2_session_init", code: -6, message: "out of memory")
        }
        raw = transport
        libssh2_session_set_blocking(transport, 0)
        let recvCallback:
            @convention(c) (
                libssh2_socket_t, UnsafeMutableRawPointer?, Int, Int32,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> Int = countingReceive
        _ = libssh2_session_callback_set(transport, LIBSSH2_CALLBACK_RECV, unsafeBitCast(recvCallback, to: UnsafeMutableRawPointer.self))
    }

    /// The libssh2 error code and message of the last failed call.
    var lastError: (code: Int32, message: String) {
        var message: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let code = libssh2_session_last_error(raw, &message, &length, 0)
        return (code, message.map { String(cString: $0) } ?? "")
    }

    /// The last error's code only; EAGAIN after a call that returned NULL means "try again".
    var lastErrno: Int32 { libssh2_session_last_errno(raw) }

    /// The socket directions libssh2 was waiting for when its last call returned EAGAIN.
    var blockDirections: Int32 { libssh2_session_block_directions(raw) }

    /// An `SSHError.libssh2` carrying the session's last error.
    func error(_ operation: String) -> SSHError {
        let (code, message) = lastError
        return .libssh2(operation: operation, code: code, message: message)
    }

    /// Orders the preferred algorithms of one kind (the names come from ``HostKeyName``, all known to libssh2 1.10).
    func setPreference(_ method: Int32, _ names: [String]) {
        _ = libssh2_session_method_pref(raw, method, names.joined(separator: ","))
    }

    deinit {
        // After the socket is shut down every send fails fast, so this ends in a few passes.
        var attempts = 0
        while libssh2_session_free(raw) == LIBSSH2_ERROR_EAGAIN, attempts < 1000 { attempts += 1 }
        Unmanaged<TransportContext>.fromOpaque(contextPointer).release()
    }
}

/// Receives like `recv`, and notes when bytes arrived, so that a silent peer can be told from a busy one.
private func countingReceive(
    socket: libssh2_socket_t, buffer: UnsafeMutableRawPointer?, length: Int, flags: Int32,
    abstract: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int {
    let received: Int?
    do {
        received = try SystemCall.receive(socket, into: UnsafeMutableRawBufferPointer(start: buffer, count: length), flags: flags)
    } catch {
        return -Int(error.code)
    }
    guard let count = received else { return -Int(EAGAIN) }
    if count > 0, let pointer = abstract?.pointee {
        let context = Unmanaged<TransportContext>.fromOpaque(pointer).takeUnretainedValue()
        context.lastReceive = .now
        if context.quickAcknowledgement { acknowledgeAtOnce(socket) }
    }
    return count
}

/// Turns delayed ACKs off until the next receive (Linux `TCP_QUICKACK` is not sticky).
///
/// sshd leaves Nagle on for a connection that only forwards (direct-tcpip): it holds each second
/// small packet until the first is acknowledged, and a delayed ACK makes that ~40 ms. Measured
/// through a jump host: 44 ms per command without this, 4 ms with it.
private func acknowledgeAtOnce(_ socket: libssh2_socket_t) {
    // Only a speed-up: a failure leaves the delayed ACK, which is still correct.
    _ = try? SystemCall.setOption(socket, Int32(IPPROTO_TCP), TCP_QUICKACK, 1)
}
