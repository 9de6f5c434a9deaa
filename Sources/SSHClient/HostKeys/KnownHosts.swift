import CLibSSH2
import Foundation

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
/// Lines libssh2 cannot parse (markers, wildcards, comments) are skipped one by one, never the
/// rest of the file; the file is only ever appended to, never rewritten.
final class KnownHostsFile {
    let path: String
    private let transport: SSHTransport
    private let collection: OpaquePointer

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
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .knownHostsFileFailed(path: path, reason: "cannot be read (check its permissions)")
        }
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let bytes = Array(line) + [UInt8(ascii: "\n")]
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    _ = libssh2_knownhost_readline(collection, $0.baseAddress, $0.count, LIBSSH2_KNOWNHOST_FILE_OPENSSH)
                }
            }
        }
    }

    enum CheckResult { case match, mismatch, notFound }

    /// Compares `key` with the entries for the host.
    func check(host: String, port: Int, keyBytes: [UInt8], algorithm: String) -> CheckResult {
        let typeMask = LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW | HostKeyName.knownHostMask(forAlgorithm: algorithm)
        let result = keyBytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { key in
                libssh2_knownhost_checkp(collection, host, Int32(port), key.baseAddress, key.count, typeMask, nil)
            }
        }
        switch result {
        case LIBSSH2_KNOWNHOST_CHECK_MATCH: return .match
        case LIBSSH2_KNOWNHOST_CHECK_MISMATCH: return .mismatch
        default: return .notFound
        }
    }

    /// The key algorithms recorded for the host, found by checking a key that matches nothing:
    /// libssh2 answers "mismatch" exactly when an entry of that type exists.
    func knownAlgorithms(host: String, port: Int) -> [String] {
        HostKeyName.defaultOrder.filter { check(host: host, port: port, keyBytes: [0, 0, 0, 1, 0], algorithm: $0) == .mismatch }
    }

    /// Appends the host's key as one line, as `ssh` does under `StrictHostKeyChecking accept-new`.
    func append(host: String, port: Int, key: HostKey) throws(SSHError) {
        let name = HostKeyName.knownHostsName(host: host, port: port)
        let line = name + " " + key.typeName + " " + Data(key.bytes).base64EncodedString() + "\n"
        let directory = (path as NSString).deletingLastPathComponent
        do {
            if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644])
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
            var prefix = ""
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if try handle.read(upToCount: 1) != Data([UInt8(ascii: "\n")]) { prefix = "\n" }
                try handle.seekToEnd()
            }
            try handle.write(contentsOf: Data((prefix + line).utf8))
        } catch {
            throw .knownHostsFileFailed(path: path, reason: "cannot append the new host key: \(error.localizedDescription)")
        }
    }

    deinit {
        libssh2_knownhost_free(collection)
    }
}
