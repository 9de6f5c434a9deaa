import Glibc

// Local files through the C library, so a failure carries `errno` and its `strerror` text instead
// of Foundation's wording.

extension SystemCall {
    // MARK: Files

    /// The whole contents of the file at `path` (symbolic links followed), read straight into an
    /// array sized from `fstat` (no second copy of a big file in memory, no bytes zeroed first); a
    /// file that grows while it is read, or whose size `fstat` does not know (`/proc`), is read to
    /// its end.
    public static func readFile(_ path: String) throws(SystemCallError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemCallError("fstat") }
        // One byte over the size, so that a file that did not grow is read to its end at once.
        var (contents, reachedEnd) = try read(fd, upTo: Int(status.st_size) + 1)
        var chunk = max(contents.count, 64 * 1024)
        while !reachedEnd {
            let next = try read(fd, upTo: chunk)
            contents += next.bytes
            reachedEnd = next.reachedEnd
            chunk *= 2
        }
        return contents
    }

    /// Reads from `fd` until `capacity` bytes are read or the file ends, into memory not
    /// initialised first (zeroing 64 KiB through `repeatElement` took ~20 ms in a debug build).
    private static func read(_ fd: Int32, upTo capacity: Int) throws(SystemCallError) -> (bytes: [UInt8], reachedEnd: Bool) {
        var failure: SystemCallError?
        var reachedEnd = false
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let memory = UnsafeMutableRawBufferPointer(buffer)
            while initialized < capacity {
                do throws(SystemCallError) {
                    // The file is open blocking: `read(_:into:)` never says "nothing yet" (nil).
                    let count = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: memory[initialized...])) ?? 0
                    guard count > 0 else {
                        reachedEnd = true
                        return
                    }
                    initialized += count
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return (bytes, reachedEnd)
    }

    /// Reads the file at `path` from start to end, handing `body` each piece of up to
    /// `chunkSize` bytes as it is read: a file of any size in constant memory.
    public static func readFile(
        _ path: String, chunkSize: Int, _ body: (ArraySlice<UInt8>) -> Void
    ) throws(SystemCallError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError("read") }
            if count == 0 { return }
            body(buffer[0..<count])
        }
    }

    /// Whether something (file, folder, or what a symbolic link points to) exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` names a folder (symbolic links followed).
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates the folder at `path` and any missing parents with `mode`; an existing folder is fine.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(SystemCallError) {
        guard !path.isEmpty, !isDirectory(path) else { return }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0, errno != EEXIST { throw SystemCallError("mkdir") }
    }

    /// Creates (or empties) the file at `path`, writes `bytes`, then gives it exactly `mode` and
    /// the access and modification time `modified` (seconds since 1970): one open, the writes,
    /// `fchmod`, `futimens`, close. Not flushed to disk.
    public static func writeFile(_ path: String, contents bytes: [UInt8], mode: mode_t, modified: Int) throws(SystemCallError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("open") }
        defer { close(fd) }
        try writeAll(fd, bytes)
        guard fchmod(fd, mode) == 0 else { throw SystemCallError("fchmod") }
        let time = timespec(tv_sec: modified, tv_nsec: 0)
        var times = [time, time]
        guard futimens(fd, &times) == 0 else { throw SystemCallError("futimens") }
    }

    /// Appends `bytes` to the file at `path`, creating it with `mode` if missing (symbolic links
    /// followed). When the file is not empty and does not end in a newline, one is written first,
    /// so the appended text starts a line of its own.
    public static func appendLine(_ bytes: [UInt8], to path: String, creatingWith mode: mode_t) throws(SystemCallError) {
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError("open") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemCallError("fstat") }
        var prefix: [UInt8] = []
        if status.st_size > 0 {
            var last: UInt8 = 0
            guard pread(fd, &last, 1, status.st_size - 1) == 1 else { throw SystemCallError("pread") }
            if last != UInt8(ascii: "\n") { prefix = [UInt8(ascii: "\n")] }
        }
        try writeAll(fd, prefix + bytes)
        guard fsync(fd) == 0 else { throw SystemCallError("fsync") }
    }
}

/// A file opened to append to (`O_APPEND`): each ``append(_:)`` is one `write` that lands at the
/// end, so appenders in other processes never overwrite each other, and it says where it landed.
public struct AppendingFile: ~Copyable {
    private let fd: Int32

    /// Opens the file at `path` to read and append, creating it with `mode` when missing.
    public init(path: String, mode: mode_t) throws(SystemCallError) {
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError("open") }
    }

    deinit { SystemCall.close(fd) }

    /// The file's size now.
    public func size() throws(SystemCallError) -> Int {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemCallError("fstat") }
        return Int(status.st_size)
    }

    /// Up to `count` bytes from `offset`; fewer at the end of the file.
    public func read(at offset: Int, count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard got >= 0 else { throw SystemCallError("pread") }
        return Array(bytes.prefix(got))
    }

    /// Appends `bytes` with one `write` and returns the offset they start at; nil when the system
    /// took only part of them (the file then ends in bytes no offset was handed out for).
    public func append(_ bytes: [UInt8]) throws(SystemCallError) -> Int? {
        guard !bytes.isEmpty else { return try size() }
        var written = -1
        repeat {
            written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        guard written >= 0 else { throw SystemCallError("write") }
        guard written == bytes.count else { return nil }
        let end = lseek(fd, 0, SEEK_CUR)
        guard end >= 0 else { throw SystemCallError("lseek") }
        return Int(end) - written
    }
}

/// An exclusive advisory lock (`flock`) on a file, so that cooperating processes take turns; it
/// is released by ``release()``, when the value goes away, or when the process ends, however it ends.
public struct FileLock: ~Copyable {
    private let fd: Int32
    /// False when another process held the lock for longer than the wait: the holder goes on unlocked.
    public let isHeld: Bool

    /// Takes the lock on the file at `path` (created with `mode` when missing), trying until
    /// `limit` has passed.
    public init(path: String, mode: mode_t, waitingUpTo limit: Duration) throws(SystemCallError) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError("open") }
        let deadline = ContinuousClock.now + limit
        var held = flock(fd, LOCK_EX | LOCK_NB) == 0
        while !held, errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline {
            usleep(10_000)
            held = flock(fd, LOCK_EX | LOCK_NB) == 0
        }
        isHeld = held
    }

    /// Releases the lock now.
    public consuming func release() {}

    deinit { SystemCall.close(fd) }
}
