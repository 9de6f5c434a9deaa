import ArgumentParser
import Foundation
import SSHClient
import Synchronization

struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Copy a file, or with -r a directory, from the box to this machine.",
        discussion: """
            REMOTE is a file on the box: absolute, or relative to the remote home (quote a leading ~). LOCAL is where to put \
            it here: a file name, or an existing folder to put it in under its own name; the current folder when left out.

            The file streams in constant memory into a temporary beside LOCAL (.NAME.rws-part), gets the remote file's \
            permission bits and modification time, and is renamed over LOCAL at the end: LOCAL is never a partial file. \
            An interrupted copy leaves its temporary; --resume continues it when its last bytes (up to 64 KiB) equal the \
            remote file's at the same place, and starts over otherwise. On a terminal a progress line shows the rate and \
            the time left; on a pipe nothing is printed.

            With -r a directory is copied with everything in it: files stream as above, symbolic links stay links (never \
            followed), permission bits and times are kept, FIFOs, sockets and devices are skipped. The tree is built in \
            .NAME.rws-part beside LOCAL and renamed at the end; LOCAL must not exist. --resume keeps the files of an \
            interrupted copy that have the remote size and time and continues a partial one; without it the temporary \
            of an interrupted copy is removed first.

            Exit status 0, 1 when the remote file or the local folder is missing or unreadable, the disk here is full, or \
            LOCAL exists for -r (the message says which), 255 when the connection failed.

            Examples:
              rws get --host box '~/app/build/app.tar.gz'
              rws get --host box /var/log/syslog logs/
              rws get --host box '~/big.iso' --resume
              rws get --host box -r '~/app/fixtures' ./fixtures
            """
    )

    @OptionGroup var connection: ConnectionOptions

    // A path on the box: no local file completion.
    @Argument(help: "The file on the box.", completion: .default)
    var remote: String

    @Argument(help: "Where to put it here (a file, or a folder); the current folder by default.", completion: .file())
    var local: String?

    @Flag(name: .long, help: "Continue an interrupted copy from its temporary, after checking its last bytes.")
    var resume = false

    @Flag(name: [.short, .long], help: "Copy a directory and everything in it.")
    var recursive = false

    func run() async throws {
        try await runReportingErrors {
            try requireRemotePath(remote)
            let target = Self.localPath(for: remote, local: local)
            let meter = Terminal.isTTY(2) ? ProgressLine(name: URL(fileURLWithPath: target).lastPathComponent) : nil
            do {
                _ = try await connection.withConnection { ssh in
                    if recursive, try await ssh.stat(remote, followSymlinks: true).kind == .directory {
                        return try await ssh.downloadDirectory(remote, to: target, resume: resume) { meter?.show($0) }
                    }
                    return try await ssh.download(remote, to: target, resume: resume) { meter?.show($0) }
                }
            } catch {
                meter?.clear()
                throw InterruptedCopy.explain(error)
            }
            meter?.clear()
            return 0
        }
    }

    /// LOCAL as given, inside it when it is a folder, or the remote file's name here.
    static func localPath(for remote: String, local: String?) -> String {
        let name = remote.split(separator: "/").last.map(String.init) ?? remote  // "~/app/" names app
        guard let local else { return name }
        let expanded = NSString(string: local).expandingTildeInPath
        var isFolder: ObjCBool = false
        if local.hasSuffix("/") || (FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder) && isFolder.boolValue) {
            return URL(fileURLWithPath: expanded).appendingPathComponent(name).path
        }
        return expanded
    }
}

/// One line on stderr, redrawn at most ten times a second: `name  45%  12.3 MB/s  3 s left`.
final class ProgressLine: Sendable {
    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var started = ContinuousClock.now
    }

    private let name: String
    private let state = Mutex(State())

    init(name: String) { self.name = name }

    func show(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let started: ContinuousClock.Instant? = state.withLock { state in
            if let last = state.lastDrawn, now - last < .milliseconds(100), progress.bytes < progress.total { return nil }
            state.lastDrawn = now
            return state.started
        }
        guard let started else { return }
        let elapsed = Double((now - started).components.attoseconds) / 1e18 + Double((now - started).components.seconds)
        let rate = elapsed > 0 ? Double(progress.transferred) / elapsed : 0
        let percent = progress.total > 0 ? Int(Double(progress.bytes) * 100 / Double(progress.total)) : 100
        let left = rate > 0 ? " \(Int(Double(progress.total - progress.bytes) / rate)) s left" : ""
        Terminal.err("\r\u{1B}[K\(name.safeLine)  \(percent)%  \(String(format: "%.1f", rate / 1e6)) MB/s\(left)")
    }

    func clear() { Terminal.err("\r\u{1B}[K") }
}
