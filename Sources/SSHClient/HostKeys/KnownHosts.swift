import CLibSSH2
import Foundation
import Platform

/// The server's host key, as presented in the handshake.
struct HostKey {
    let bytes: [UInt8]
    let libssh2Type: Int32

    /// "ssh-ed25519", "ecdsa-sha2-nistp256", ...
    var typeName: String { HostKeyName.algorithm(forLibssh2Type: libssh2Type) }

    /// The OpenSSH-style fingerprint: "SHA256:" and unpadded base64.
    let fingerprint: String

    init?(transport: SSHTransport) {
        var length = 0
        var type: Int32 = 0
        guard let pointer = libssh2_session_hostkey(transport.raw, &length, &type), length > 0 else { return nil }
        bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        libssh2Type = type
        if let hash = libssh2_hostkey_hash(transport.raw, LIBSSH2_HOSTKEY_HASH_SHA256) {
            let digest = hash.withMemoryRebound(to: UInt8.self, capacity: 32) { Data(UnsafeBufferPointer(start: $0, count: 32)) }
            fingerprint = "SHA256:" + digest.base64EncodedString().replacingOccurrences(of: "=", with: "")
        } else {
            fingerprint = "SHA256:?"
        }
    }
}

/// Names of host key algorithms and of hosts in known_hosts.
enum HostKeyName {
    /// The algorithms libssh2 1.10 can verify, in the order we ask for them when nothing is known.
    static let defaultOrder = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"]

    static func algorithm(forLibssh2Type type: Int32) -> String {
        switch type {
        case LIBSSH2_HOSTKEY_TYPE_RSA: return "ssh-rsa"
        case LIBSSH2_HOSTKEY_TYPE_DSS: return "ssh-dss"
        case LIBSSH2_HOSTKEY_TYPE_ECDSA_256: return "ecdsa-sha2-nistp256"
        case LIBSSH2_HOSTKEY_TYPE_ECDSA_384: return "ecdsa-sha2-nistp384"
        case LIBSSH2_HOSTKEY_TYPE_ECDSA_521: return "ecdsa-sha2-nistp521"
        case LIBSSH2_HOSTKEY_TYPE_ED25519: return "ssh-ed25519"
        default: return "unknown"
        }
    }

    /// The known_hosts key-type bits for an algorithm name.
    static func knownHostMask(forAlgorithm name: String) -> Int32 {
        switch name {
        case "ssh-rsa": return LIBSSH2_KNOWNHOST_KEY_SSHRSA
        case "ssh-dss": return LIBSSH2_KNOWNHOST_KEY_SSHDSS
        case "ecdsa-sha2-nistp256": return LIBSSH2_KNOWNHOST_KEY_ECDSA_256
        case "ecdsa-sha2-nistp384": return LIBSSH2_KNOWNHOST_KEY_ECDSA_384
        case "ecdsa-sha2-nistp521": return LIBSSH2_KNOWNHOST_KEY_ECDSA_521
        case "ssh-ed25519": return LIBSSH2_KNOWNHOST_KEY_ED25519
        default: return LIBSSH2_KNOWNHOST_KEY_UNKNOWN
        }
    }

    /// How OpenSSH names a host in known_hosts: plain on port 22, `[host]:port` otherwise.
    static func knownHostsName(host: String, port: Int) -> String {
        port == 22 ? host : "[\(host)]:\(port)"
    }
}

/// An OpenSSH known_hosts file, read through libssh2's parser (hashed entries, `[host]:port`).
///
/// Lines libssh2 cannot parse (wildcards, comments) are skipped one by one, never the rest of the
/// file; CRLF line ends are read like LF. `@revoked` lines are kept apart and refuse their key;
/// `@cert-authority` lines are skipped (libssh2 1.10 has no host certificates). The file is only
/// ever appended to, never rewritten.
final class KnownHostsFile {
    let path: String
    private let transport: SSHTransport
    private let collection: OpaquePointer
    private var revoked: [RevokedHostKey] = []

    init(path: String, transport: SSHTransport) throws(SSHError) {
        self.path = path
        self.transport = transport
        guard let collection = libssh2_knownhost_init(transport.raw) else {
            throw .knownHostsFileFailed(path: path, reason: "libssh2 could not allocate a known hosts collection")
        }
        self.collection = collection
        try load()
    }

    private func load() throws(SSHError) {
        guard SystemCall.exists(path) else { return }
        let data: [UInt8]
        do {
            data = try SystemCall.readFile(path)
        } catch {
            throw .knownHostsFileFailed(
                path: path, reason: "cannot be read: " + error.reason(advising: "check its permissions (chmod u+r)"))
        }
        for rawLine in data.split(separator: UInt8(ascii: "\n")) {
            var line = Array(rawLine)
            while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                line.removeLast()
            }
            guard !line.isEmpty else { continue }
            if line.first == UInt8(ascii: "@") {
                if let entry = RevokedHostKey(line: line) { revoked.append(entry) }
                continue
            }
            Self.read(line, into: collection)
        }
    }

    /// Adds one known_hosts line to a libssh2 collection; a line it cannot parse is left out.
    fileprivate static func read(_ line: [UInt8], into collection: OpaquePointer) {
        let bytes = line + [UInt8(ascii: "\n")]
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = libssh2_knownhost_readline(collection, $0.baseAddress, $0.count, LIBSSH2_KNOWNHOST_FILE_OPENSSH)
            }
        }
    }

    enum CheckResult { case match, mismatch, notFound, revoked }

    /// Compares `key` with the entries for the host; a key on a matching `@revoked` line is
    /// ``CheckResult/revoked`` whatever else the file says, as in OpenSSH.
    func check(host: String, port: Int, keyBytes: [UInt8], algorithm: String) -> CheckResult {
        if revoked.contains(where: { $0.revokes(keyBytes, host: host, port: port, transport: transport) }) { return .revoked }
        switch Self.check(collection, host: host, port: port, keyBytes: keyBytes, algorithm: algorithm) {
        case LIBSSH2_KNOWNHOST_CHECK_MATCH: return .match
        case LIBSSH2_KNOWNHOST_CHECK_MISMATCH: return .mismatch
        default: return .notFound
        }
    }

    fileprivate static func check(
        _ collection: OpaquePointer, host: String, port: Int, keyBytes: [UInt8], algorithm: String
    ) -> Int32 {
        let typeMask = LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW | HostKeyName.knownHostMask(forAlgorithm: algorithm)
        return keyBytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { key in
                libssh2_knownhost_checkp(collection, host, Int32(port), key.baseAddress, key.count, typeMask, nil)
            }
        }
    }

    /// The key algorithms recorded for the host, found by checking a key that matches nothing:
    /// libssh2 answers "mismatch" exactly when an entry of that type exists.
    func knownAlgorithms(host: String, port: Int) -> [String] {
        HostKeyName.defaultOrder.filter { check(host: host, port: port, keyBytes: [0, 0, 0, 1, 0], algorithm: $0) == .mismatch }
    }

    /// Appends the host's key as one line, as `ssh` does under `StrictHostKeyChecking accept-new`:
    /// through symbolic links, after a newline if the file lacks a final one, creating the file
    /// (0644) and its folder (0700) when missing.
    func append(host: String, port: Int, key: HostKey) throws(SSHError) {
        let name = HostKeyName.knownHostsName(host: host, port: port)
        let line = name + " " + key.typeName + " " + Data(key.bytes).base64EncodedString() + "\n"
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try SystemCall.makeDirectories(directory, mode: 0o700)
            try SystemCall.appendLine(Array(line.utf8), to: path, creatingWith: 0o644)
        } catch {
            throw .knownHostsFileFailed(path: path, reason: "cannot append the new host key: " + Self.advice(for: error))
        }
    }

    /// What went wrong writing the file, and what to do about it.
    private static func advice(for error: SystemCallError) -> String {
        if error.isOutOfDescriptors { return error.reason(advising: nil) }
        switch error.code {
        case EACCES, EPERM, EROFS:
            return "\(error.reason); make the file writable (chmod u+w), or name a writable one with UserKnownHostsFile "
                + "in the SSH config, or add the key yourself (ssh-keyscan)"
        case ENOSPC, EDQUOT:
            return "\(error.reason); free some space and connect again"
        default:
            return "\(error.reason) (\(error.call))"
        }
    }

    deinit {
        libssh2_knownhost_free(collection)
    }
}

/// One `@revoked` line of a known_hosts file: its host patterns and key.
private struct RevokedHostKey {
    let line: [UInt8]
    let patterns: String
    let algorithm: String
    let key: [UInt8]

    /// Parses `@revoked patterns type base64 [comment]`; other markers and malformed lines give nil.
    init?(line: [UInt8]) {
        let fields = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard fields.count >= 4, String(decoding: fields[0], as: UTF8.self) == "@revoked",
            let key = Data(base64Encoded: Data(fields[3]))
        else { return nil }
        self.line = Array(fields[1...].joined(separator: [UInt8(ascii: " ")]))
        patterns = String(decoding: fields[1], as: UTF8.self)
        algorithm = String(decoding: fields[2], as: UTF8.self)
        self.key = Array(key)
    }

    /// Whether this line revokes `keyBytes` for the host: the same key, and a host pattern that
    /// matches (hashed names through libssh2, plain ones with OpenSSH's `*`, `?` and `!`).
    func revokes(_ keyBytes: [UInt8], host: String, port: Int, transport: SSHTransport) -> Bool {
        guard keyBytes == key else { return false }
        if patterns.hasPrefix("|") {
            guard let collection = libssh2_knownhost_init(transport.raw) else { return true }
            defer { libssh2_knownhost_free(collection) }
            KnownHostsFile.read(line, into: collection)
            return KnownHostsFile.check(collection, host: host, port: port, keyBytes: keyBytes, algorithm: algorithm)
                == LIBSSH2_KNOWNHOST_CHECK_MATCH
        }
        let name = HostKeyName.knownHostsName(host: host, port: port)
        var matched = false
        for pattern in patterns.split(separator: ",") {
            let negated = pattern.hasPrefix("!")
            let glob = negated ? String(pattern.dropFirst()) : String(pattern)
            guard Self.matches(Array(name.lowercased().utf8), Array(glob.lowercased().utf8)[...]) else { continue }
            if negated { return false }
            matched = true
        }
        return matched
    }

    /// OpenSSH's host pattern match: `*` any run, `?` one character, everything else literal
    /// (brackets too: `[host]:port` names are plain text).
    private static func matches(_ name: [UInt8], _ pattern: ArraySlice<UInt8>, from index: Int = 0) -> Bool {
        guard let first = pattern.first else { return index == name.count }
        switch first {
        case UInt8(ascii: "*"):
            return (index...name.count).contains { matches(name, pattern.dropFirst(), from: $0) }
        case UInt8(ascii: "?"):
            return index < name.count && matches(name, pattern.dropFirst(), from: index + 1)
        default:
            return index < name.count && name[index] == first && matches(name, pattern.dropFirst(), from: index + 1)
        }
    }
}
