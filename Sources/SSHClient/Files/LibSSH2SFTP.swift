import CLibSSH2

/// A `LIBSSH2_SFTP` session of a nonblocking connection: thin typed calls, so that no bare
/// pointer crosses files. It runs one call at a time; every call is one attempt, answering
/// `.wouldBlock` until libssh2 has its reply. Freed with its channel; confined to the I/O thread.
struct LibSSH2SFTP {
    private let raw: OpaquePointer
    private let transport: SSHTransport

    /// One attempt at starting the SFTP subsystem on a new channel (`libssh2_sftp_init` opens
    /// the channel and sends the subsystem request itself).
    static func start(on transport: SSHTransport) -> LibSSH2Outcome<LibSSH2SFTP> {
        LibSSH2Outcome(libssh2_sftp_init(transport.raw), transport) { LibSSH2SFTP(raw: $0, transport: transport) }
    }

    /// The channel the session runs on.
    var channel: LibSSH2Channel { LibSSH2Channel(libssh2_sftp_get_channel(raw)) }

    /// The SFTP status (`SSH_FX_*`) of the last call that failed with `LibSSH2Code.sftpProtocol`.
    var lastStatus: SFTPStatusCode { SFTPStatusCode(rawValue: libssh2_sftp_last_error(raw)) }

    /// Opens a file (with ``OpenFlags`` and the mode a created file gets) or a directory.
    func open(_ path: String, flags: OpenFlags = [], mode: Int = 0, directory: Bool = false) -> LibSSH2Outcome<Handle> {
        let type = directory ? LIBSSH2_SFTP_OPENDIR : LIBSSH2_SFTP_OPENFILE
        let handle = libssh2_sftp_open_ex(raw, path, UInt32(path.utf8.count), flags.rawValue, mode, type)
        return LibSSH2Outcome(handle, transport) { Handle(raw: $0) }
    }

    /// `stat` (following a final symbolic link) or `lstat`.
    func attributes(of path: String, followingSymlinks: Bool) -> LibSSH2Outcome<RemoteFileAttributes> {
        var attributes = LIBSSH2_SFTP_ATTRIBUTES()
        let type = followingSymlinks ? LIBSSH2_SFTP_STAT : LIBSSH2_SFTP_LSTAT
        let rc = libssh2_sftp_stat_ex(raw, path, UInt32(path.utf8.count), type, &attributes)
        return LibSSH2Outcome(Int(rc)) { _ in RemoteFileAttributes(attributes) }
    }

    /// Sets the permission bits of `path` exactly (no umask).
    func setPermissions(of path: String, to permissions: UInt32) -> LibSSH2Outcome<Void> {
        var attributes = LIBSSH2_SFTP_ATTRIBUTES()
        attributes.flags = UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS)
        attributes.permissions = UInt(permissions)
        return LibSSH2Outcome(Int(libssh2_sftp_stat_ex(raw, path, UInt32(path.utf8.count), LIBSSH2_SFTP_SETSTAT, &attributes))) { _ in }
    }

    /// What a symbolic link points to, as stored.
    func linkTarget(of path: String) -> LibSSH2Outcome<[UInt8]> { symlinkCall(path, LIBSSH2_SFTP_READLINK) }

    /// The server's idea of `path` made absolute (for `.`: the login directory).
    func realPath(of path: String) -> LibSSH2Outcome<[UInt8]> { symlinkCall(path, LIBSSH2_SFTP_REALPATH) }

    private func symlinkCall(_ path: String, _ type: Int32) -> LibSSH2Outcome<[UInt8]> {
        var target = [CChar](repeating: 0, count: 4097)
        let rc = libssh2_sftp_symlink_ex(raw, path, UInt32(path.utf8.count), &target, UInt32(target.count - 1), type)
        return LibSSH2Outcome(Int(rc)) { count in target[0..<count].map { UInt8(bitPattern: $0) } }
    }

    /// Renames with SFTP v3's semantics: fails when `target` exists.
    func rename(_ source: String, to target: String) -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_sftp_rename_ex(raw, source, UInt32(source.utf8.count), target, UInt32(target.utf8.count), 0))) { _ in }
    }

    /// Creates a directory with `permissions` (less the server's umask).
    func makeDirectory(_ path: String, permissions: UInt32) -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_sftp_mkdir_ex(raw, path, UInt32(path.utf8.count), Int(permissions)))) { _ in }
    }

    /// Removes an empty directory.
    func removeDirectory(_ path: String) -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_sftp_rmdir_ex(raw, path, UInt32(path.utf8.count)))) { _ in }
    }

    /// Removes a file or a symbolic link.
    func removeFile(_ path: String) -> LibSSH2Outcome<Void> {
        LibSSH2Outcome(Int(libssh2_sftp_unlink_ex(raw, path, UInt32(path.utf8.count)))) { _ in }
    }

    /// How a file is opened (`SSH_FXF_*`).
    struct OpenFlags: OptionSet {
        let rawValue: UInt
        static let read = OpenFlags(rawValue: UInt(LIBSSH2_FXF_READ))
        static let write = OpenFlags(rawValue: UInt(LIBSSH2_FXF_WRITE))
        static let create = OpenFlags(rawValue: UInt(LIBSSH2_FXF_CREAT))
        static let truncate = OpenFlags(rawValue: UInt(LIBSSH2_FXF_TRUNC))
        static let append = OpenFlags(rawValue: UInt(LIBSSH2_FXF_APPEND))
    }

    /// An open file or directory handle; closed once, by ``close()``.
    struct Handle {
        fileprivate let raw: OpaquePointer

        /// Reads into `buffer`; `.done(0)` is the end of the file. libssh2 keeps up to four
        /// times the buffer in flight as read-ahead requests.
        func read(into buffer: UnsafeMutableRawBufferPointer) -> LibSSH2Outcome<Int> {
            LibSSH2Outcome(libssh2_sftp_read(raw, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)) { $0 }
        }

        /// Writes as much of `bytes` as libssh2 takes (it pipelines them as requests); `.done` counts them.
        func write(_ bytes: UnsafeRawBufferPointer) -> LibSSH2Outcome<Int> {
            LibSSH2Outcome(libssh2_sftp_write(raw, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)) { $0 }
        }

        /// Moves the read position; no request goes out.
        func seek(to offset: UInt64) { libssh2_sftp_seek64(raw, offset) }

        /// The open file's attributes (`fstat`).
        func attributes() -> LibSSH2Outcome<RemoteFileAttributes> {
            var attributes = LIBSSH2_SFTP_ATTRIBUTES()
            return LibSSH2Outcome(Int(libssh2_sftp_fstat_ex(raw, &attributes, 0))) { _ in RemoteFileAttributes(attributes) }
        }

        /// Sets the mode and (access and modification) time, each if given, with one `fsetstat`.
        func setAttributes(permissions: UInt32?, modified: Int?) -> LibSSH2Outcome<Void> {
            var attributes = LIBSSH2_SFTP_ATTRIBUTES()
            if let permissions {
                attributes.flags |= UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS)
                attributes.permissions = UInt(permissions)
            }
            if let modified {
                attributes.flags |= UInt(LIBSSH2_SFTP_ATTR_ACMODTIME)
                attributes.atime = UInt(modified)
                attributes.mtime = UInt(modified)
            }
            return LibSSH2Outcome(Int(libssh2_sftp_fstat_ex(raw, &attributes, 1))) { _ in }
        }

        /// The next directory entry: its name's length in `name` and its attributes; `.done(nil)`
        /// at the end. A name longer than the buffer fails with `LibSSH2Code.bufferTooSmall`.
        func nextEntry(name: inout [UInt8], longEntry: inout [UInt8]) -> LibSSH2Outcome<(Int, RemoteFileAttributes)?> {
            var attributes = LIBSSH2_SFTP_ATTRIBUTES()
            let rc = name.withUnsafeMutableBufferPointer { name in
                longEntry.withUnsafeMutableBufferPointer { long in
                    name.withMemoryRebound(to: CChar.self) { nameChars in
                        long.withMemoryRebound(to: CChar.self) { longChars in
                            libssh2_sftp_readdir_ex(
                                raw, nameChars.baseAddress, nameChars.count, longChars.baseAddress, longChars.count, &attributes)
                        }
                    }
                }
            }
            return LibSSH2Outcome(Int(rc)) { count in count == 0 ? nil : (count, RemoteFileAttributes(attributes)) }
        }

        /// Closes the handle.
        func close() -> LibSSH2Outcome<Void> { LibSSH2Outcome(Int(libssh2_sftp_close_handle(raw))) { _ in } }
    }
}

extension RemoteFileAttributes {
    /// libssh2's flag-gated attributes (absent fields are zero).
    fileprivate init(_ raw: LIBSSH2_SFTP_ATTRIBUTES) {
        let flags = raw.flags
        func has(_ flag: Int32) -> Bool { flags & UInt(flag) != 0 }
        self.init(
            mode: has(LIBSSH2_SFTP_ATTR_PERMISSIONS) ? UInt32(truncatingIfNeeded: raw.permissions) : 0,
            size: has(LIBSSH2_SFTP_ATTR_SIZE) ? raw.filesize : 0,
            userID: has(LIBSSH2_SFTP_ATTR_UIDGID) ? UInt32(truncatingIfNeeded: raw.uid) : 0,
            groupID: has(LIBSSH2_SFTP_ATTR_UIDGID) ? UInt32(truncatingIfNeeded: raw.gid) : 0,
            modificationSeconds: has(LIBSSH2_SFTP_ATTR_ACMODTIME) ? Int64(raw.mtime) : 0)
    }
}
