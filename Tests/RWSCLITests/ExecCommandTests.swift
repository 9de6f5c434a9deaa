import Foundation
import RWSTestSupport
import Testing

@Suite struct ExecCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test(arguments: ServerKind.allCases)
    func execStreamsOutputAndExitsWithTheRemoteStatus(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let outcome = await InProcessRWS.run(["exec"] + server.rwsFlags + ["--", "echo hello; echo oops >&2; exit 7"], home: home)
        #expect(outcome.stdout == "hello\n")
        #expect(outcome.stderr == "oops\n")
        #expect(outcome.status == 7)
    }

    /// The spawned binary reads its real standard input (a pipe); in-process, the test's bytes.
    @Test(arguments: ServerKind.allCases, [true, false])
    func execForwardsLocalStdin(kind: ServerKind, spawned: Bool) async throws {
        let server = try SharedTestServer.get(kind)
        let arguments = ["exec"] + server.rwsFlags + ["--", "tr a-z A-Z"]
        var stdout = ""
        var status: Int32 = -1
        if spawned {
            let outcome = try await RWSBinary.run(arguments, stdin: "shout\n", home: home)
            (stdout, status) = (outcome.stdout, outcome.status)
        } else {
            let outcome = await InProcessRWS.run(arguments, stdin: "shout\n", home: home)
            (stdout, status) = (outcome.stdout, outcome.status)
        }
        #expect(stdout == "SHOUT\n")
        #expect(status == 0)
    }

    @Test(arguments: ServerKind.allCases)
    func execReportsASignalAs128PlusItsNumber(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let outcome = await InProcessRWS.run(["exec"] + server.rwsFlags + ["--", "kill -KILL $$"], home: home)
        #expect(outcome.status == 137)
    }

    @Test(arguments: ServerKind.allCases)
    func execTimeoutStopsTheCommandAndExits124(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let outcome = await InProcessRWS.run(["exec"] + server.rwsFlags + ["--timeout", "1s", "--", "sleep 30"], home: home)
        #expect(outcome.status == 124)
        #expect(outcome.stderr.contains("timed out after 1s"))
    }

    @Test(arguments: ServerKind.allCases)
    func theHostMayComeFromRWS_HOST(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let flags = ["--identity", server.clientKeyPath, "--known-hosts", server.knownHostsPath, "-F", "/dev/null"]
        let outcome = await InProcessRWS.run(
            ["exec"] + flags + ["--", "echo via env"], home: home,
            environment: ["RWS_HOST": "\(server.user)@127.0.0.1:\(server.port)"])
        #expect(outcome.stdout == "via env\n")
        #expect(outcome.status == 0)
    }

    @Test func missingHostSaysHowToGiveOne() async throws {
        let outcome = await InProcessRWS.run(["exec", "--", "true"], home: home)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--host"))
        #expect(outcome.stderr.contains("RWS_HOST"))
    }

    @Test(arguments: ServerKind.allCases)
    func unknownHostKeyFailsWith255AndShowsTheFingerprint(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let emptyKnownHosts = home + "-known_hosts"
        let flags = [
            "--host", "\(server.user)@127.0.0.1:\(server.port)", "--identity", server.clientKeyPath,
            "--known-hosts", emptyKnownHosts, "-F", "/dev/null",
        ]
        let outcome = await InProcessRWS.run(["exec"] + flags + ["--", "true"], home: home)
        #expect(outcome.status == 255)
        #expect(outcome.stderr.contains("SHA256:"))
        #expect(outcome.stderr.contains("--accept-new-host-key"))
    }
}

@Suite struct LoggingTests {
    @Test(arguments: ServerKind.allCases)
    func verboseLogsTheStepsButNeverThePassword(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-log-\(UUID().uuidString.prefix(8))").path
        let secret = "s3cret-\(UUID().uuidString)"
        let flags = [
            "--host", "\(server.user)@127.0.0.1:\(server.port)", "--known-hosts", server.knownHostsPath,
            "-F", "/dev/null", "--password-env", "RWS_TEST_PASSWORD",
        ]
        let outcome = await InProcessRWS.run(
            ["exec", "-vvv"] + flags + ["--", "true"], home: home,
            environment: ["RWS_TEST_PASSWORD": secret])
        #expect(outcome.status == 255)
        #expect(outcome.stderr.contains("trying authentication"))
        let line = outcome.stderr.split(separator: "\n").first { $0.contains("trying authentication") } ?? ""
        let stamped = String(line).prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#) != nil
        #expect(stamped, "stamped with the local time: \(line)")
        #expect(outcome.stderr.contains("method=password"))
        #expect(!outcome.stderr.contains(secret))
        #expect(!outcome.stdout.contains(secret))
    }

    @Test(arguments: [false, true])
    func aPasswordGivenWherePasswordEnvWantsAVariableNameIsNeverPrinted(json: Bool) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-log-\(UUID().uuidString.prefix(8))").path
        let typedInTheWrongPlace = "Tr0ub4dor&3-\(UUID().uuidString.prefix(8))"
        let outcome = await InProcessRWS.run(
            ["projects", "--host", "me@127.0.0.1:1", "-F", "/dev/null", "-vvv", "--password-env", typedInTheWrongPlace]
                + (json ? ["--json"] : []), home: home)
        #expect(outcome.status == 64)
        #expect((outcome.stderr + outcome.stdout).contains("--password-env: no environment variable of that name is set"))
        #expect(!outcome.stderr.contains(typedInTheWrongPlace))
        #expect(!outcome.stdout.contains(typedInTheWrongPlace))
    }

    @Test(arguments: ServerKind.allCases)
    func withoutVerboseNothingButTheErrorIsPrinted(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-log-quiet").path
        let outcome = await InProcessRWS.run(["exec"] + server.rwsFlags + ["--", "true"], home: home)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
    }
}
