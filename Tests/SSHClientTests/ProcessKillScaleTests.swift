import Foundation
import Platform
import RWSTestSupport
import Testing

@testable import SSHClient

/// The kill script at the size a fork loop reaches in seconds (8,000 processes in the 4 s of
/// ExecStoppingTests' loop): more PIDs than one argument may hold (the kernel's 128 KiB, about
/// 16,000 PIDs of seven characters).
@Suite struct ProcessKillScaleTests {
    @Test func aSessionOfMoreProcessesThanOneArgumentCanListIsStoppedAndChecked() async throws {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("rws-kill-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: sandbox + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        // A session leader that only KILL ends.
        _ = try ScriptShells.execute(
            "/usr/bin/setsid", ["-f", "/bin/sh", "-c", "trap '' HUP TERM; echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60"],
            directory: sandbox)
        #expect(try await Eventually.holds(within: .seconds(10)) { FileManager.default.fileExists(atPath: sandbox + "/pid") })
        let leader = try String(contentsOfFile: sandbox + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? SystemCall.kill(Int32(leader) ?? 0, SIGKILL) }
        // The table lists 25,000 children of the leader while it lives; their PIDs are above any the
        // kernel gives (4,194,304 at most), so the script's signals to them reach nobody.
        let ps = try Shell.run("/bin/sh", ["-c", "command -v ps"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let fake = """
            #!/bin/sh
            case "$*" in *sid=*) ;; *) exec \(ps) "$@" ;; esac
            \(ps) "$@" | awk -v p=\(leader) '{ print } $1 == p && $4 !~ /^Z/ { for (i = 0; i < 25000; i++) print 5000000 + i, p, p, "S" }'

            """
        try fake.write(toFile: sandbox + "/bin/ps", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox + "/bin/ps")

        let line = try ProcessKill.script.commandLine(leader, "2", "0.2")
        let run = try ScriptShells.execute(
            "/bin/sh", ["-c", line], directory: sandbox, environment: ["PATH": sandbox + "/bin:/usr/bin:/bin", "LC_ALL": "C"],
            timeout: .seconds(60))

        #expect(run.stdoutText == "rws-stop:\n", "\(run)")
        #expect(!run.stderr.contains("too long"), "\(run.stderr)")
        let state = (try? String(contentsOfFile: "/proc/\(leader)/stat", encoding: .utf8))?.split(separator: " ")[2]
        #expect(state == nil || state == "Z", "the leader \(leader) still runs: \(state.map(String.init) ?? "")")
    }
}
