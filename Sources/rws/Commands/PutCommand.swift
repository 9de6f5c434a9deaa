import ArgumentParser
import Foundation
import Platform
import SSHClient

struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Copy a file, or with -r a directory, from this machine to the box.",
        discussion: """
            LOCAL is a file here. REMOTE is where to put it on the box: a file path, or an existing folder (or a path ending \
            in /) to put it in under its own name; the remote home when left out. Quote a leading ~ ('~/dist/').

            The file goes in chunks of 4 MiB (constant memory) into a temporary beside REMOTE (.NAME.rws-part), which gets \
            the local file's permission bits and modification time and is renamed over REMOTE at the end by one command on \
            the box: REMOTE is never a partial file. An interrupted copy leaves its temporary on the box; --resume continues \
            it when its last bytes (up to 64 KiB) equal the local file's at the same place, and starts over otherwise. On a \
            terminal a progress line shows the rate and the time left; on a pipe nothing is printed.

            With -r a directory is copied with everything in it: files go as above, symbolic links stay links (never \
            followed), permission bits and times are kept, FIFOs, sockets and devices are skipped. The tree is built in \
            .NAME.rws-part beside REMOTE on the box and renamed at the end; REMOTE must not exist. --resume keeps the files \
            of an interrupted copy that have the local size and time and continues a partial one; without it the temporary \
            of an interrupted copy is removed first.

            Finishing needs commands to run on the box (not an SFTP-only account). Exit status 0, 1 when the local file or \
            the remote folder is missing or unwritable, the box's disk is full, or REMOTE exists for -r (the message says \
            which), 66 when LOCAL does not exist, 255 when the connection failed.

            Examples:
              rws put --host box screenshot.png '~/app/docs/'
              rws put --host box build/app.tar.gz
              rws put --host box big.iso '~/big.iso' --resume
              rws put --host box -r fixtures '~/app/'
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The file here.", completion: .file())
    var local: String

    // A path on the box: no local file completion.
    @Argument(help: "Where to put it on the box (a file, or a folder); the remote home by default.", completion: .default)
    var remote: String?

    @Flag(name: .long, help: "Continue an interrupted copy from its temporary on the box, after checking its last bytes.")
    var resume = false

    @Flag(name: [.short, .long], help: "Copy a directory and everything in it.")
    var recursive = false

    func run() async throws {
        try await runReportingErrors {
            let source = NSString(string: local).expandingTildeInPath
            guard FileManager.default.fileExists(atPath: source) else {
                throw CLIError.failed("no such file: \(local) (a file on this machine); check the path", code: RWSExitCode.noInput)
            }
            if let remote { try requireRemotePath(remote) }
            let isFolder = SystemCall.isDirectory(source)
            if isFolder, !recursive { throw TransferError.isADirectory(path: local) }
            let name = URL(fileURLWithPath: source).lastPathComponent
            let meter = Terminal.isTTY(2) ? ProgressLine(name: name) : nil
            do {
                _ = try await connection.withConnection { ssh in
                    let target = try await Self.remotePath(for: name, remote: remote, on: ssh)
                    if isFolder { return try await ssh.uploadDirectory(source, to: target, resume: resume) { meter?.show($0) } }
                    return try await ssh.upload(source, to: target, resume: resume) { meter?.show($0) }
                }
            } catch {
                meter?.clear()
                throw InterruptedCopy.explain(error)
            }
            meter?.clear()
            return 0
        }
    }

    /// REMOTE as given, inside it when it is a folder on the box (or ends with `/`), or the
    /// file's name in the remote home.
    static func remotePath(for name: String, remote: String?, on ssh: SSHConnection) async throws -> String {
        guard let remote else { return "~/" + name }
        if remote.hasSuffix("/") { return remote + name }
        if let entry = try? await ssh.stat(remote, followSymlinks: true), entry.kind == .directory { return remote + "/" + name }
        return remote
    }
}
