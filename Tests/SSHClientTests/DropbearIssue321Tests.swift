import Foundation
import RWSTestSupport
import Testing

/// The dropbear defect behind ``DropbearChannelRace``, shown without rws: a C program on plain
/// libssh2 (`scripts/lib/dropbear_issue321.c`) opens a channel, lets another channel's command
/// exit, then sends the first one its command. The server this machine runs ends the connection
/// and logs its failed assertion; OpenSSH runs the command. Once Debian's dropbear is fixed
/// (2024.86 or later), the dropbear case fails: the known issues that lean on the defect
/// (``DropbearChannelRace``) and rws's one-at-a-time rule for it
/// (`SSHConnection.serverAbortsOnOverlappingCommands`) are then to be revisited.
@Suite(.timeLimit(.minutes(1))) struct DropbearIssue321Tests {
    @Test(arguments: ServerKind.allCases)
    func aCommandSentToAChannelOpenedBeforeAnotherExitedEndsTheConnectionOnlyOnDropbear(kind: ServerKind) throws {
        let program = try Self.build()
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let race = DropbearChannelRace(server)
        let ended = try Spawn.capture(
            program, [],
            environment: [
                "BENCH_PORT": "\(server.port)", "BENCH_USER": server.user, "BENCH_KEY": server.clientKeyPath,
                "BENCH_KEY_PUB": server.clientKeyPath + ".pub", "BENCH_KNOWN_HOSTS": server.knownHostsPath,
            ], timeout: .seconds(30))
        let said = String(decoding: ended.output + ended.errors, as: UTF8.self)
        switch kind {
        case .dropbear:
            #expect(ended.status == 0, "the defect did not show: is dropbear fixed (2024.86+)? \(said)")
            #expect(race.serverAborted, "dropbear's log lacks \(DropbearChannelRace.logLine)")
        case .openssh, .asyncssh:
            #expect(ended.status == 2, "\(said)")
        }
    }

    /// The reproduction, compiled once per test process; cases running side by side may both
    /// compile it, and each puts its copy in place with one atomic rename.
    private static func build() throws -> String {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("rws-issue321-\(getpid())").path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/dropbear_issue321.c").path
        let fresh = binary + ".\(UUID().uuidString.prefix(8))"
        let built = try Spawn.capture(
            "/usr/bin/cc", ["-Wall", "-Werror", "-o", fresh, source, "-lssh2"], environment: ["PATH": "/usr/bin:/bin"])
        guard built.status == 0, rename(fresh, binary) == 0 else {
            try? FileManager.default.removeItem(atPath: fresh)
            throw TestServerError.commandFailed("cc \(source): \(String(decoding: built.output + built.errors, as: UTF8.self))")
        }
        return binary
    }
}
