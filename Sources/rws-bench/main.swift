// `rws-bench SUBCOMMAND [options]`: every benchmark of rws (Subcommands.swift lists them).
import Foundation

exit(await Subcommands.main(Array(CommandLine.arguments.dropFirst())))
