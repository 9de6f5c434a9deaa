import Foundation
import Glibc

extension SystemCall {
    /// Replaces the file at `path` with `contents` atomically: they are written to a new private
    /// file beside it (`.NAME.PID.RANDOM.tmp`, mode 0600), which is then renamed over it, so a
    /// reader sees the old file or the new one, never a part. The temporary file is removed when
    /// anything fails. Not flushed to disk.
    public static func replaceFile(_ path: String, contents: Data) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + ".\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("open") }
        do throws(SystemCallError) {
            defer { close(fd) }
            try write(contents, to: fd)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemCallError("rename")
            unlink(temporary)
            throw failure
        }
    }

    private static func write(_ contents: Data, to fd: Int32) throws(SystemCallError) {
        let failure: Int32? = contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw SystemCallError("write", code: failure) }
    }
}
