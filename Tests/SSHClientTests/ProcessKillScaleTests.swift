import Foundation
import Platform
import RWSTestSupport
import Testing

@testable import SSHClient

/// The kill script at the size a fork loop reaches in seconds (8,000 processes in the 4 s of
/// ExecStoppingTests' loop): more PIDs than one argument may hold (the kernel's 128 KiB, about
/// 16,000 PIDs of seven characters), looks at the table that take most of a second, and its
/// grace period kept by the clock without cutting it short.
@Suite struct ProcessKillScaleTests {
    @Test func aSessionOfMoreProcessesThanOneArgumentCanListIsStoppedAndChecked() async throws {
        let session = try await SessionLeader.start()
        defer { session.remove() }
        // The table lists 25,000 children of the leader while it lives; their PIDs are above any the
        // kernel gives (4,194,304 at most), so the script's signals to them reach nobody.
        try session.fakeTable(#"{ print } $1 == p && $4 !~ /^Z/ { for (i = 0; i < 25000; i++) print 5000000 + i, p, p, "S" }"#)

        let run = try session.stop(tenths: 2)

        #expect(run.stdoutText == "rws-stop:\n", "\(run)")
        #expect(!run.stderr.contains("too long"), "\(run.stderr)")
        #expect(session.leaderIsGone, "the leader \(session.leader) still runs")
    }

    @Test func theGracePeriodEndsByTheClockWhenEachLookAtTheTableIsSlow() async throws {
        let session = try await SessionLeader.start()
        defer { session.remove() }
        // Each look takes 0.4 s: twenty looks, one per tenth of the 2 s grace, would take 8 s.
        try session.fakeTable("{ print }", before: "sleep 0.4; echo look >> looks")

        let run = try session.stop(tenths: 20)

        #expect(run.stdoutText == "rws-stop:\n", "\(run)")
        #expect(session.leaderIsGone, "the leader \(session.leader) still runs")
        let looks = (try? String(contentsOfFile: session.folder + "/looks", encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(looks <= 14, "\(looks) looks at the table")
    }

    @Test func aGracePeriodUnderASecondIsNotCutShortByTheClock() async throws {
        // The leader leaves 0.3 s after TERM; the grace is 0.5 s, and it starts 0.15 s before
        // the clock's next second, where a whole-second bound taken without rounding up ended it.
        let session = try await SessionLeader.start(
            onTerm: "trap 'sleep 0.3; echo graceful > ended; exit 0' TERM; trap '' HUP; sleep 60 & wait")
        defer { session.remove() }
        let fraction = { Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1) }
        while fraction() < 0.8 || fraction() > 0.9 { try await Task.sleep(for: .milliseconds(10)) }

        let run = try session.stop(tenths: 5)

        #expect(run.stdoutText == "rws-stop:\n", "\(run)")
        #expect(FileManager.default.fileExists(atPath: session.folder + "/ended"), "the leader was killed before its grace ran out")
    }

    /// A session leader (by default one that only KILL ends), in a folder whose `bin` comes first
    /// on the script's PATH.
    private struct SessionLeader {
        let folder: String
        let leader: String

        static func start(onTerm: String = "trap '' HUP TERM; exec sleep 60") async throws -> SessionLeader {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-kill-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
            _ = try ScriptShells.execute(
                "/usr/bin/setsid", ["-f", "/bin/sh", "-c", "echo $$ > pid.tmp && mv pid.tmp pid && \(onTerm)"],
                directory: folder)
            #expect(try await Eventually.holds(within: .seconds(10)) { FileManager.default.fileExists(atPath: folder + "/pid") })
            let leader = try String(contentsOfFile: folder + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return SessionLeader(folder: folder, leader: leader)
        }

        /// A `ps` whose process table (the script's `-o ...sid=...` look) is the real one through
        /// `program` (awk, with `p` the leader's PID), after the shell command `before`.
        func fakeTable(_ program: String, before: String = ":") throws {
            let ps = try Shell.run("/bin/sh", ["-c", "command -v ps"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let fake = """
                #!/bin/sh
                case "$*" in *sid=*) ;; *) exec \(ps) "$@" ;; esac
                cd \(folder) && \(before)
                \(ps) "$@" | awk -v p=\(leader) '\(program)'

                """
            try fake.write(toFile: folder + "/bin/ps", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/bin/ps")
        }

        /// Runs the kill script on the leader's session with a grace of `tenths` tenths of a second.
        func stop(tenths: Int) throws -> ScriptShells.Run {
            let line = try ProcessKill.script.commandLine(leader, String(tenths), String(Double(tenths) / 10))
            return try ScriptShells.execute(
                "/bin/sh", ["-c", line], directory: folder, environment: ["PATH": folder + "/bin:/usr/bin:/bin", "LC_ALL": "C"],
                timeout: .seconds(60))
        }

        var leaderIsGone: Bool {
            let state = (try? String(contentsOfFile: "/proc/\(leader)/stat", encoding: .utf8))?.split(separator: " ")[2]
            return state == nil || state == "Z"
        }

        /// Kills the leader if a failed check left it running (never PID 0: this process's group).
        func remove() {
            if let pid = Int32(leader), pid > 1, !leaderIsGone { _ = try? SystemCall.kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
