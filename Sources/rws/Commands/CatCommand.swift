import ArgumentParser
import Foundation
import SSHClient

struct CatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Write a file from the box to stdout, from an offset if given.",
        discussion: """
            PATH is a remote path: absolute, or relative to the remote home. Quote a leading ~
            ('~/notes.txt') so that your local shell leaves it for the box. The file is streamed:
            any size works, and stopping the reader (Ctrl+C, a closed pipe) stops the transfer.

            --offset N starts at byte N, so a growing file (a session history) can be read again
            from where the last read ended without transferring anything twice.

            Uses SFTP when the server offers it, else exec and cat/tail. Errors go to stderr, exit
            status 1 (255 when the connection failed).

            Examples:
              rws cat --host box '~/.claude/projects/-home-me-app/1234.jsonl'
              rws cat --host box /var/log/syslog --offset 1048576 | less
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Start at this byte offset (default 0).", valueName: "bytes"))
    var offset: UInt64 = 0

    // A path on the box: no local file completion, which would offer the wrong files.
    @Argument(help: "The remote file.", completion: .default)
    var path: String

    func run() async throws {
        try await runReportingErrors {
            try requireRemotePath(path)
            return try await connection.withConnection { ssh in
                // A reader that went away (`rws cat ... | head`) ends the transfer quietly.
                for try await chunk in try await ssh.streamFile(path, from: offset) {
                    guard Terminal.write(chunk, to: STDOUT_FILENO) else { break }
                }
                return 0
            }
        }
    }
}
