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
    /// Why the server said it ended the connection (its SSH_MSG_DISCONNECT description), if it did.
    var disconnectMessage: String?
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
        let disconnectCallback:
            @convention(c) (
                OpaquePointer?, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> Void = noteDisconnect
        _ = libssh2_session_callback_set(
            transport, LIBSSH2_CALLBACK_DISCONNECT, unsafeBitCast(disconnectCallback, to: UnsafeMutableRawPointer.self))
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
    var blockDirections: BlockDirections { BlockDirections(rawValue: libssh2_session_block_directions(raw)) }

    /// An `SSHError.libssh2` carrying the session's last error.
    func error(_ operation: String) -> SSHError {
        let (code, message) = lastError
        return .libssh2(operation: operation, code: code, message: message)
    }

    /// Orders the host key algorithms to ask for (the names come from ``HostKeyName``, all known to libssh2 1.10).
    func preferHostKeyAlgorithms(_ names: [String]) {
        _ = libssh2_session_method_pref(raw, LIBSSH2_METHOD_HOSTKEY, names.joined(separator: ","))
    }

    // MARK: Handshake and end

    /// One attempt at the key exchange over `socket`; `LibSSH2Code.wouldBlock` until it is done.
    func handshake(socket: Int32) -> Int32 { libssh2_session_handshake(raw, libssh2_socket_t(socket)) }

    /// Whether the last handshake failure was for want of a common algorithm.
    var handshakeFoundNoCommonAlgorithm: Bool {
        let code = lastErrno
        return code == LIBSSH2_ERROR_KEX_FAILURE || code == LIBSSH2_ERROR_METHOD_NONE
    }

    /// The server's identification string, once the handshake is done.
    var serverBanner: String? { libssh2_session_banner_get(raw).map { String(cString: $0) } }

    /// One attempt at a polite disconnect; `LibSSH2Code.wouldBlock` while the message waits to go out.
    func disconnect() -> Int32 {
        libssh2_session_disconnect_ex(raw, SSH_DISCONNECT_BY_APPLICATION, "closed by rws", "")
    }

    // MARK: libssh2's own keepalive (benchmarks only; see KeepaliveBurst)

    /// Sends one `keepalive@libssh2.org` global request with want-reply at once; false when it failed.
    ///
    /// An interval of `UInt32.max` is -1 in libssh2's `int` field, which makes
    /// `libssh2_keepalive_send` send on every call instead of once per interval. A send that
    /// would block stays queued in libssh2 and goes out first on the next call.
    func sendGlobalKeepalive() -> Bool {
        libssh2_keepalive_config(raw, 1, UInt32.max)
        defer { libssh2_keepalive_config(raw, 1, 0) }
        var secondsToNext: Int32 = 0
        return libssh2_keepalive_send(raw, &secondsToNext) == 0
    }

    private var isFreed = false

    /// Frees the session (and its last OpenSSL state) now; nothing may use it afterwards.
    func free() {
        guard !isFreed else { return }
        isFreed = true
        // After the socket is shut down every send fails fast, so this ends in a few passes.
        var attempts = 0
        while libssh2_session_free(raw) == LIBSSH2_ERROR_EAGAIN, attempts < 1000 { attempts += 1 }
        Unmanaged<TransportContext>.fromOpaque(contextPointer).release()
    }

    deinit { free() }
}

/// The socket directions a nonblocking libssh2 call waits for.
struct BlockDirections: OptionSet {
    let rawValue: Int32
    static let inbound = BlockDirections(rawValue: LIBSSH2_SESSION_BLOCK_INBOUND)
    static let outbound = BlockDirections(rawValue: LIBSSH2_SESSION_BLOCK_OUTBOUND)
}

/// The libssh2 error codes rws tells apart, so that only the wrapper files import CLibSSH2.
enum LibSSH2Code {
    /// `LIBSSH2_ERROR_EAGAIN`: a nonblocking call must be repeated once the socket moves.
    static let wouldBlock = LIBSSH2_ERROR_EAGAIN
    /// The server refused a channel open or a subsystem.
    static let channelFailure = LIBSSH2_ERROR_CHANNEL_FAILURE
    /// The server refused a global request (a `tcpip-forward`).
    static let requestDenied = LIBSSH2_ERROR_REQUEST_DENIED
    /// A buffer was too small for what libssh2 had to put in it (an SFTP directory entry's name).
    static let bufferTooSmall = LIBSSH2_ERROR_BUFFER_TOO_SMALL
    /// An SFTP call failed with a status from the server (see ``LibSSH2SFTP/lastStatus``).
    static let sftpProtocol = LIBSSH2_ERROR_SFTP_PROTOCOL
    /// The server closed or reset the connection, or libssh2 could not read its identification line.
    static let connectionEnded: Set<Int32> = [LIBSSH2_ERROR_SOCKET_DISCONNECT, LIBSSH2_ERROR_SOCKET_RECV, LIBSSH2_ERROR_BANNER_RECV]
    /// libssh2's key-file errors: every local key problem (unreadable, encrypted, unsupported).
    static let keyFile: Set<Int32> = [LIBSSH2_ERROR_FILE, LIBSSH2_ERROR_KEYFILE_AUTH_FAILED]

    /// libssh2 errors after which the session is unusable.
    static func isFatal(_ code: Int32) -> Bool {
        switch code {
        case LIBSSH2_ERROR_SOCKET_NONE, LIBSSH2_ERROR_SOCKET_SEND, LIBSSH2_ERROR_SOCKET_RECV, LIBSSH2_ERROR_SOCKET_DISCONNECT,
            LIBSSH2_ERROR_SOCKET_TIMEOUT, LIBSSH2_ERROR_TIMEOUT, LIBSSH2_ERROR_DECRYPT, LIBSSH2_ERROR_INVALID_MAC,
            LIBSSH2_ERROR_PROTO, LIBSSH2_ERROR_BAD_SOCKET, LIBSSH2_ERROR_KEX_FAILURE, LIBSSH2_ERROR_ENCRYPT:
            return true
        default:
            return false
        }
    }
}

/// What a nonblocking libssh2 call gave: its value, "try again", or a libssh2 error code.
enum LibSSH2Outcome<Value> {
    case done(Value)
    /// `LIBSSH2_ERROR_EAGAIN`: try again on a later pass.
    case wouldBlock
    case failed(Int32)

    /// The outcome of a call that returns a count or a status: negative is an error.
    init(_ rc: Int, value: (Int) -> Value) {
        if rc >= 0 {
            self = .done(value(rc))
        } else if rc == Int(LIBSSH2_ERROR_EAGAIN) {
            self = .wouldBlock
        } else {
            self = .failed(Int32(rc))
        }
    }

    /// The outcome of a call that returns a pointer: NULL comes with the session's last errno.
    init(_ pointer: OpaquePointer?, _ transport: SSHTransport, value: (OpaquePointer) -> Value) {
        if let pointer {
            self = .done(value(pointer))
            return
        }
        let code = transport.lastErrno
        self = code == LIBSSH2_ERROR_EAGAIN ? .wouldBlock : .failed(code)
    }
}

/// The libssh2 version this process runs with, e.g. "1.10.0".
var libSSH2Version: String {
    libssh2_version(0).map { String(cString: $0) } ?? "unknown"
}

/// Whether libssh2 signs with rsa-sha2-256/512 (1.11 and later).
var libSSH2SupportsRSASHA2: Bool { rws_libssh2_version_at_least(1, 11) != 0 }

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

/// Keeps the reason a server gave for ending the connection ("Too many authentication failures"):
/// libssh2 then reports only that it could not send or receive.
private func noteDisconnect(
    session: OpaquePointer?, reason: Int32, message: UnsafePointer<CChar>?, messageLength: Int32,
    language: UnsafePointer<CChar>?, languageLength: Int32, abstract: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) {
    guard let pointer = abstract?.pointee, let message, messageLength > 0 else { return }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self), count: Int(messageLength))
    Unmanaged<TransportContext>.fromOpaque(pointer).takeUnretainedValue().disconnectMessage = String(decoding: bytes, as: UTF8.self)
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
