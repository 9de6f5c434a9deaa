// A client of the SSH benchmark harness (../shared/bench/README.md, "Client contract"):
// `rws-bench <benchmark>` prints one number on its last stdout line; diagnostics go to stderr.
// Exit status 3 means "not supported by this client".
import Foundation
import SSHClient

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: rws-bench <info|connect|exec_seq|exec_conc|bulk|exec_ls|exec_cat|sftp_ls|sftp_read>\n".utf8))
    exit(2)
}
let environment = BenchEnvironment(ProcessInfo.processInfo.environment)
do {
    guard let benchmark = Benchmarks.all[arguments[1]] else {
        FileHandle.standardError.write(Data("rws-bench: \(arguments[1]) is not supported\n".utf8))
        exit(3)
    }
    let value = try await benchmark(environment)
    print(value)
    exit(0)
} catch {
    FileHandle.standardError.write(Data("rws-bench: \(error)\n".utf8))
    exit(1)
}
