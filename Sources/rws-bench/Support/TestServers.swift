import Foundation
import RWSTestSupport

/// Runs `script` with `/bin/sh -e`, `arguments` its `$1`, `$2`…: how the benchmarks write their files.
func runShellScript(_ script: String, _ arguments: String...) throws {
    try Shell.run("/bin/sh", ["-ec", script, "sh"] + arguments)
}

extension TestSSHServer {
    /// What OpenSSH's `ssh`, `sftp` and `scp` need to log in here with the test key and no user configuration.
    var openSSHOptions: [String] {
        ["-i", clientKeyPath, "-o", "UserKnownHostsFile=\(knownHostsPath)", "-o", "StrictHostKeyChecking=yes", "-F", "/dev/null"]
    }

    var login: String { "\(user)@127.0.0.1" }
}

/// The real Claude Code sessions the session benchmarks are made from: `BENCH_CORPUS`, or
/// ../shared/claude-corpus/jsonl beside the checkout this file was built from.
let claudeCorpus: URL = {
    if let folder = ProcessInfo.processInfo.environment["BENCH_CORPUS"], !folder.isEmpty { return URL(fileURLWithPath: folder) }
    var checkout = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { checkout.deleteLastPathComponent() }  // this file, Support, rws-bench, Sources
    return checkout.deletingLastPathComponent().appendingPathComponent("shared/claude-corpus/jsonl")
}()
