import ArgumentParser
import Foundation
import SSHConfig

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Inspect how rws resolves connection settings.",
        subcommands: [Show.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the settings rws would connect with, and where each came from.",
            discussion: """
                Precedence: flags > RWS_* environment > SSH config file (~/.ssh/config or -F) > defaults. The key/value form \
                matches `ssh -G`; warnings from the config file follow it.

                Examples:
                  rws config show --host mybox
                  rws config show --host me@10.0.0.5:2222 --json
                  RWS_HOST=mybox rws config show
                """
        )

        @OptionGroup var connection: ConnectionOptions

        @Flag(name: .long, help: "Print JSON, with the origin of every setting.")
        var json = false

        func run() async throws {
            try await runReportingErrors(json: json) {
                let resolved = try connection.resolve()
                if json {
                    Terminal.out(try JSONValueEncoder.text(of: resolved))
                } else {
                    var lines = resolved.keyValueLines
                    lines += resolved.warnings.map { "# warning: \($0)" }
                    Terminal.out(lines.joined(separator: "\n") + "\n")
                }
                return 0
            }
        }
    }
}
