// A client of the SSH benchmark harness (../shared/bench/README.md, "Client contract"):
// `rws-bench <benchmark>` prints one number on its last stdout line; diagnostics go to stderr.
// Exit status 3 means "not supported by this client".
// `rws-bench soak [options]` is the long-running check instead (see SoakOptions): it prints a
// JSON summary and exits 0 only when the run passed. `rws-bench age KIND` measures latency and
// memory as keepalives pile up (see AgeBenchmark). `rws-bench fault-soak [options]` runs the
// rws command itself through a faulty link (see FaultSoak).
import Foundation
@_spi(Benchmarks) import SSHClient

let arguments = CommandLine.arguments
let usage =
    "usage: rws-bench <info|connect|exec_seq|exec_conc|bulk|exec_ls|exec_cat|sftp_ls|sftp_read|"
    + "exec_latency|shell_echo|sftp_stat>\n       rws-bench soak [--duration SECONDS] [--quick] [--execs N] [--reads N] "
    + "[--sample SECONDS] [--cut-every SECONDS] ...\n       rws-bench age [global-request|probe] [--compare]\n"
    + "       rws-bench fault-soak [--duration SECONDS] [--server openssh|dropbear] [--cut-every SECONDS] ...\n"
guard arguments.count == 2 || arguments.count > 1 && ["soak", "age", "fault-soak"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let environment = BenchEnvironment(ProcessInfo.processInfo.environment)
do {
    if arguments[1] == "soak" {
        let passed = try await SoakBenchmark.run(environment, try SoakOptions(Array(arguments.dropFirst(2))))
        exit(passed ? 0 : 1)
    }
    if arguments[1] == "fault-soak" {
        exit(try await FaultSoak.run(try FaultSoakOptions(Array(arguments.dropFirst(2)))) ? 0 : 1)
    }
    if arguments[1] == "age" {
        let name = arguments.count > 2 ? arguments[2] : KeepaliveKind.probe.rawValue
        guard let kind = KeepaliveKind(rawValue: name) else { throw BenchFailure("age: unknown keepalive kind \(name)") }
        let compare = arguments.count > 3 && arguments[3] == "--compare"
        exit(try await (compare ? AgeBenchmark.compare(environment, kind: kind) : AgeBenchmark.run(environment, kind: kind)) ? 0 : 1)
    }
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
