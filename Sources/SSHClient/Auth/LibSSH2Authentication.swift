import CLibSSH2
import Foundation

/// libssh2's user authentication calls as thin typed calls on the session. Each is one
/// nonblocking attempt: `LibSSH2Code.wouldBlock` (or nil with that errno) means "call again".
extension SSHTransport {
    /// Whether the server has accepted us (it may take the "none" a list request sends).
    var isAuthenticated: Bool { libssh2_userauth_authenticated(raw) != 0 }

    /// The methods the server allows `user`, comma-separated; nil while blocked or on failure.
    func allowedAuthenticationMethods(user: String) -> String? {
        libssh2_userauth_list(raw, user, UInt32(user.utf8.count)).map { String(cString: $0) }
    }

    /// One password attempt; 0 when accepted.
    func authenticate(user: String, password: String) -> Int32 {
        libssh2_userauth_password_ex(raw, user, UInt32(user.utf8.count), password, UInt32(password.utf8.count), nil)
    }

    /// One attempt with a private key file (libssh2 derives the public key); 0 when accepted.
    func authenticate(user: String, keyFile path: String, passphrase: String?) -> Int32 {
        libssh2_userauth_publickey_fromfile_ex(raw, user, UInt32(user.utf8.count), nil, path, passphrase ?? "")
    }

    /// One attempt with a private key given as text; 0 when accepted.
    func authenticate(user: String, keyText bytes: [UInt8], passphrase: String?) -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                libssh2_userauth_publickey_frommemory(
                    raw, user, user.utf8.count, nil, 0, chars.baseAddress, chars.count, passphrase ?? "")
            }
        }
    }

    /// One keyboard-interactive attempt, answered by ``TransportContext/keyboardInteractive``; 0 when accepted.
    func authenticateKeyboardInteractive(user: String) -> Int32 {
        libssh2_userauth_keyboard_interactive_ex(raw, user, UInt32(user.utf8.count), answerKeyboardInteractive)
    }
}

/// A `LIBSSH2_AGENT`: a connection to an ssh-agent and the identities it lists. Freed on deinit.
final class LibSSH2Agent {
    private let raw: OpaquePointer

    /// A handle for the session; nil when libssh2 could not allocate one.
    init?(_ transport: SSHTransport) {
        guard let raw = libssh2_agent_init(transport.raw) else { return nil }
        self.raw = raw
    }

    /// Connects to the agent listening at `socketPath`; false when it cannot.
    func connect(socketPath: String) -> Bool {
        libssh2_agent_set_identity_path(raw, socketPath)
        return libssh2_agent_connect(raw) == 0
    }

    /// The identities the agent holds, in its order; nil when it did not list them.
    func identities() -> [Identity]? {
        guard libssh2_agent_list_identities(raw) == 0 else { return nil }
        var all: [Identity] = []
        var previous: UnsafeMutablePointer<libssh2_agent_publickey>?
        var identity: UnsafeMutablePointer<libssh2_agent_publickey>?
        while libssh2_agent_get_identity(raw, &identity, previous) == 0, let current = identity {
            all.append(Identity(raw: current))
            previous = current
        }
        return all
    }

    /// One attempt to authenticate `user` with `identity`; 0 when accepted.
    func authenticate(user: String, with identity: Identity) -> Int32 {
        libssh2_agent_userauth(raw, user, identity.raw)
    }

    /// One identity the agent listed; valid while the agent lives.
    struct Identity {
        fileprivate let raw: UnsafeMutablePointer<libssh2_agent_publickey>

        /// The public key in SSH wire format, as in a `.pub` file's base64 field.
        var publicKey: [UInt8] {
            guard let blob = raw.pointee.blob else { return [] }
            return Array(UnsafeBufferPointer(start: blob, count: Int(raw.pointee.blob_len)))
        }
    }

    deinit {
        libssh2_agent_disconnect(raw)
        libssh2_agent_free(raw)
    }
}

/// libssh2's keyboard-interactive callback: asks the Swift responder stored in the session context.
private func answerKeyboardInteractive(
    name: UnsafePointer<CChar>?, nameLength: Int32, instruction: UnsafePointer<CChar>?, instructionLength: Int32,
    promptCount: Int32, prompts: UnsafePointer<LIBSSH2_USERAUTH_KBDINT_PROMPT>?,
    responses: UnsafeMutablePointer<LIBSSH2_USERAUTH_KBDINT_RESPONSE>?,
    abstract: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) {
    guard let pointer = abstract?.pointee, let responses else { return }
    let context = Unmanaged<TransportContext>.fromOpaque(pointer).takeUnretainedValue()
    guard let respond = context.keyboardInteractive else { return }
    func text(_ start: UnsafePointer<CChar>?, _ length: Int) -> String {
        guard let start, length > 0 else { return "" }
        return start.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
    let promptList = (0..<Int(max(promptCount, 0))).map { index -> KeyboardInteractiveChallenge.Prompt in
        let prompt = prompts![index]
        let start = prompt.text.map { UnsafePointer($0) }
        return .init(text: text(start, Int(prompt.length)), echo: prompt.echo != 0)
    }
    let challenge = KeyboardInteractiveChallenge(
        name: text(name, Int(nameLength)), instruction: text(instruction, Int(instructionLength)), prompts: promptList)
    let answers = respond(challenge)
    for index in promptList.indices {
        let answer = index < answers.count ? answers[index] : ""
        // libssh2 frees each response with free(): it must come from malloc (strdup).
        responses[index].text = strdup(answer)
        responses[index].length = UInt32(answer.utf8.count)
    }
}
