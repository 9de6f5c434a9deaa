import CLibSSH2

/// Writes bytes to a file through one SFTP handle (create + truncate, or append), then sets
/// its permission bits exactly (the server's umask does not apply).
final class SFTPWriteFile: SFTPHandleOperation {
    private let data: [UInt8]
    private let permissions: UInt32?
    private var written = 0
    private var completion: ((Result<Void, FileFailure>) -> Void)?

    /// - Parameter permissions: Set on the file after writing; nil leaves them as created.
    init(path: String, data: [UInt8], append: Bool, permissions: UInt32?, completion: @escaping (Result<Void, FileFailure>) -> Void) {
        self.data = data
        self.permissions = permissions
        self.completion = completion
        let mode = append ? LIBSSH2_FXF_APPEND : LIBSSH2_FXF_TRUNC
        super.init(
            append ? "appending to" : "writing", path: path, flags: UInt(LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | mode),
            mode: Int(permissions ?? 0o644))
    }

    override func work(_ handle: OpaquePointer, on channel: SFTPChannel) -> Work {
        if written < data.count {
            let rc = data.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    libssh2_sftp_write(handle, $0.baseAddress! + written, min($0.count - written, 4 << 20))
                }
            }
            if rc == Int(LIBSSH2_ERROR_EAGAIN) { return .blocked }
            if rc < 0 {
                failure = channel.failure(Int32(rc), operation: operation, path: path)
                return .done
            }
            written += rc
            return .yielded
        }
        guard let permissions else { return .done }
        var attributes = LIBSSH2_SFTP_ATTRIBUTES()
        attributes.flags = UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS)
        attributes.permissions = UInt(permissions)
        let rc = libssh2_sftp_fstat_ex(handle, &attributes, 1)
        if rc == LIBSSH2_ERROR_EAGAIN { return .blocked }
        if rc != 0 { failure = channel.failure(rc, operation: "setting permissions of", path: path) }
        return .done
    }

    override func deliver(_ failure: FileFailure?) {
        completion?(failure.map { .failure($0) } ?? .success(()))
        completion = nil
    }
}
