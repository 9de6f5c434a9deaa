/// How the file calls of ``SSHConnection`` reach the remote box.
public enum RemoteFileTransport: String, Sendable, Equatable {
    /// SFTP when the server offers the `sftp` subsystem, else exec and POSIX tools; decided on
    /// the first file call and kept for the connection.
    case automatic
    /// SFTP only: a server without the subsystem fails with ``RemoteFileError/sftpUnavailable(reason:)``.
    case sftp
    /// exec and POSIX tools (`sh`, `find`, `stat`, `cat`, `tail`, `head`, `mv`, `mkdir`, `rm`, `rmdir`,
    /// `readlink`), never SFTP.
    case shell
}
