import Foundation
import Platform

/// What can be learned from a private key file without its passphrase: the key type and
/// whether it is encrypted. Used to turn libssh2's one "file" error into a precise one.
struct PrivateKeyFile {
    /// "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa", or nil when the format hides it.
    let keyType: String?
    let isEncrypted: Bool
    /// The public key in SSH wire format: from the OpenSSH container (kept in the clear), else
    /// from the `.pub` file beside the key; nil when neither tells.
    var publicKey: [UInt8]? = nil

    /// Reads and inspects the file at `path`.
    static func inspect(path: String) throws(SSHError) -> PrivateKeyFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .keyFileUnreadable(path: path, reason: "no such file")
        }
        let bytes: [UInt8]
        do {
            bytes = try SystemCall.readFile(path)
        } catch {
            throw .keyFileUnreadable(path: path, reason: error.reason(advising: "check its permissions (chmod 600, owned by you)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .keyFileUnreadable(path: path, reason: "it is not a text key file (OpenSSH or PEM format)")
        }
        var key = inspect(text: text)
        if key.publicKey == nil { key.publicKey = publicKey(fromPubFile: path + ".pub") }
        return key
    }

    /// The base64 field of an OpenSSH `.pub` file (`ssh-ed25519 AAAA… comment`), decoded.
    private static func publicKey(fromPubFile path: String) -> [UInt8]? {
        guard let bytes = try? SystemCall.readFile(path), let line = String(validating: bytes, as: UTF8.self) else { return nil }
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let blob = Data(base64Encoded: String(fields[1])) else { return nil }
        return Array(blob)
    }

    /// How a key given as text is named in logs and errors: its type, never its content.
    var inMemoryLabel: String { "in-memory key (\(keyType ?? "unknown type"))" }

    static func inspect(text: String) -> PrivateKeyFile {
        if text.contains("-----BEGIN OPENSSH PRIVATE KEY-----") {
            return inspectOpenSSH(text)
        }
        let encrypted = text.contains("Proc-Type: 4,ENCRYPTED") || text.contains("BEGIN ENCRYPTED PRIVATE KEY")
        if text.contains("BEGIN RSA PRIVATE KEY") { return PrivateKeyFile(keyType: "ssh-rsa", isEncrypted: encrypted) }
        if text.contains("BEGIN EC PRIVATE KEY") { return PrivateKeyFile(keyType: "ecdsa", isEncrypted: encrypted) }
        if text.contains("BEGIN DSA PRIVATE KEY") { return PrivateKeyFile(keyType: "ssh-dss", isEncrypted: encrypted) }
        return PrivateKeyFile(keyType: nil, isEncrypted: encrypted)
    }

    /// The `openssh-key-v1` container keeps the cipher name and the public key in the clear.
    private static func inspectOpenSSH(_ text: String) -> PrivateKeyFile {
        let body = text.components(separatedBy: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let blob = Data(base64Encoded: body) else { return PrivateKeyFile(keyType: nil, isEncrypted: false) }
        var reader = SSHWireReader(Array(blob))
        guard reader.skipMagic("openssh-key-v1\0"),
            let cipher = reader.string(),
            reader.string() != nil, reader.string() != nil,  // kdf name and options
            reader.uint32() != nil,  // number of keys
            let publicKey = reader.bytes()
        else {
            return PrivateKeyFile(keyType: nil, isEncrypted: false)
        }
        var keyReader = SSHWireReader(publicKey)
        return PrivateKeyFile(
            keyType: keyReader.string().map { String(decoding: $0, as: UTF8.self) },
            isEncrypted: String(decoding: cipher, as: UTF8.self) != "none", publicKey: publicKey)
    }
}

/// Reads SSH wire-format fields (RFC 4251 `uint32` and `string`).
struct SSHWireReader {
    private let data: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { data = bytes }

    mutating func skipMagic(_ magic: String) -> Bool {
        let expected = Array(magic.utf8)
        guard data.count >= offset + expected.count, Array(data[offset..<offset + expected.count]) == expected else { return false }
        offset += expected.count
        return true
    }

    mutating func uint32() -> UInt32? {
        guard data.count >= offset + 4 else { return nil }
        let value = data[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        offset += 4
        return value
    }

    mutating func bytes() -> [UInt8]? {
        guard let length = uint32().map(Int.init), data.count >= offset + length else { return nil }
        defer { offset += length }
        return Array(data[offset..<offset + length])
    }

    mutating func string() -> [UInt8]? { bytes() }
}

/// Whether the private key file at `path` is encrypted (needs a passphrase); false when it
/// cannot be read or its format hides it.
public func privateKeyFileIsEncrypted(atPath path: String) -> Bool {
    (try? PrivateKeyFile.inspect(path: path))?.isEncrypted ?? false
}
