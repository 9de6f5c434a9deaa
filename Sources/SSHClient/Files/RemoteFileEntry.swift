import Foundation

/// What a remote directory entry is.
public enum RemoteFileKind: String, Sendable, Equatable, Codable {
    /// A regular file.
    case file
    /// A directory.
    case directory
    /// A symbolic link (never followed by a listing).
    case symlink
    /// Anything else: a device, a FIFO, a socket.
    case other

    /// The kind encoded in the `S_IFMT` bits of a POSIX mode.
    init(mode: UInt32) {
        switch mode & 0o170000 {
        case 0o100000: self = .file
        case 0o040000: self = .directory
        case 0o120000: self = .symlink
        default: self = .other
        }
    }
}

/// The metadata of a remote file, as `lstat` (or `stat`, when following links) reports it.
public struct RemoteFileAttributes: Sendable, Equatable {
    /// File, directory, symlink or other.
    public var kind: RemoteFileKind
    /// Size in bytes (for a symlink: the length of its target).
    public var size: UInt64
    /// Permission bits, `0o7777` at most (no file-type bits).
    public var permissions: UInt32
    /// Owner's numeric user id.
    public var userID: UInt32
    /// Owner's numeric group id.
    public var groupID: UInt32
    /// Last modification, whole seconds since 1970.
    public var modificationTime: Date

    /// Creates attributes; mostly useful in tests.
    public init(kind: RemoteFileKind, size: UInt64, permissions: UInt32, userID: UInt32, groupID: UInt32, modificationTime: Date) {
        self.kind = kind
        self.size = size
        self.permissions = permissions
        self.userID = userID
        self.groupID = groupID
        self.modificationTime = modificationTime
    }

    /// Attributes from a full POSIX mode (type and permission bits) and the other fields.
    init(mode: UInt32, size: UInt64, userID: UInt32, groupID: UInt32, modificationSeconds: Int64) {
        self.init(
            kind: RemoteFileKind(mode: mode), size: size, permissions: mode & 0o7777, userID: userID, groupID: groupID,
            modificationTime: Date(timeIntervalSince1970: TimeInterval(modificationSeconds)))
    }
}

/// One entry of a remote directory listing, or the answer of ``SSHConnection/stat(_:followSymlinks:)``.
public struct RemoteFileEntry: Sendable, Equatable {
    /// The entry's name within its directory, exactly as stored (decoded as UTF-8).
    public var name: String
    /// The directory path as given to the call, joined with ``name``.
    public var path: String
    /// Kind, size, permissions, owner and modification time; symlinks are not followed.
    public var attributes: RemoteFileAttributes
    /// Where a symlink points, when the call was asked to read link targets.
    public var symlinkTarget: String?

    /// Creates an entry; mostly useful in tests.
    public init(name: String, path: String, attributes: RemoteFileAttributes, symlinkTarget: String? = nil) {
        self.name = name
        self.path = path
        self.attributes = attributes
        self.symlinkTarget = symlinkTarget
    }

    /// Shorthand for `attributes.kind`.
    public var kind: RemoteFileKind { attributes.kind }
    /// Shorthand for `attributes.size`.
    public var size: UInt64 { attributes.size }
}
