import Foundation
import Glibc

extension SystemCall {
    /// Replaces the file at `path` with `contents` atomically: they are written to a new private
    /// file beside it (`.NAME.PID.RANDOM.tmp`, mode 0600), which is then renamed over it, so a
    /// reader sees the old file or the new one, never a part. The temporary file is removed when
    /// anything fails. Not flushed to disk.
    public static func replaceFile(_ path: String, contents: Data) throws(SystemCallError) {
        var file = try ReplacingFile(path: path)
        let failure = contents.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try file.write(buffer) } }
        try failure.get()
        try file.commit()
    }
}

/// A file being written in pieces to replace the one at a path atomically, as
/// ``SystemCall/replaceFile(_:contents:)`` does in one piece: nothing needs to be held whole.
/// The private file beside the target is renamed over it by ``commit()``; dropped without a
/// commit (a piece failed), it is removed and the target is left as it was.
public struct ReplacingFile: ~Copyable {
    private let path: String
    private let temporary: String
    private var fd: Int32

    /// Creates the private file (`.NAME.PID.RANDOM.tmp`, mode 0600) beside `path`.
    public init(path: String) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        self.path = path
        temporary = folder + ".\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("open") }
    }

    deinit {
        guard fd >= 0 else { return }
        SystemCall.close(fd)
        unlink(temporary)
    }

    /// Writes `bytes` after what was written so far.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("write")
            }
            offset += written
        }
    }

    /// Writes `bytes` after what was written so far.
    public mutating func write(_ bytes: [UInt8]) throws(SystemCallError) {
        let failure = bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try write(buffer) } }
        try failure.get()
    }

    /// Puts the written file in place of the target.
    public consuming func commit() throws(SystemCallError) {
        SystemCall.close(fd)
        fd = -1
        guard rename(temporary, path) == 0 else {
            let failure = SystemCallError("rename")
            unlink(temporary)
            throw failure
        }
    }
}
