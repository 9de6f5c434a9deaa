import Foundation
import RWSTestSupport
import Testing

@Suite struct ExecCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test func execStreamsOutputAndExitsWithTheRemoteStatus() throws {
        let server = try SharedTestServer.get()
        let outcome = try RWSBinary.run(["exec"] + server.rwsFlags + ["--", "echo hello; echo oops >&2; exit 7"], home: home)
        #expect(outcome.stdout == "hello\n")
        #expect(outcome.stderr == "oops\n")
        #expect(outcome.status == 7)
    }

    @Test func execForwardsLocalStdin() throws {
        let server = try SharedTestServer.get()
        let outcome = try RWSBinary.run(["exec"] + server.rwsFlags + ["--", "tr a-z A-Z"], stdin: "shout\n", home: home)
        #expect(outcome.stdout == "SHOUT\n")
        #expect(outcome.status == 0)
    }

    @Test func execReportsASignalAs128PlusItsNumber() throws {
        let server = try SharedTestServer.get()
        let outcome = try RWSBinary.run(["exec"] + server.rwsFlags + ["--", "kill -KILL $$"], home: home)
        #expect(outcome.status == 137)
    }

    @Test func execTimeoutStopsTheCommandAndExits124() throws {
        let server = try SharedTestServer.get()
        let outcome = try RWSBinary.run(["exec"] + server.rwsFlags + ["--timeout", "1s", "--", "sleep 30"], home: home)
        #expect(outcome.status == 124)
        #expect(outcome.stderr.contains("timed out after 1s"))
    }

    @Test func theHostMayComeFromRWS_HOST() throws {
        let server = try SharedTestServer.get()
        let flags = ["--identity", server.clientKeyPath, "--known-hosts", server.knownHostsPath, "-F", "/dev/null"]
        let outcome = try RWSBinary.run(["exec"] + flags + ["--", "echo via env"], home: home,
                                        environment: ["RWS_HOST": "\(server.user)@127.0.0.1:\(server.port)"])
        #expect(outcome.stdout == "via env\n")
        #expect(outcome.status == 0)
    }

    @Test func missingHostSaysHowToGiveOne() throws {
        let outcome = try RWSBinary.run(["exec", "--", "true"], home: home)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--host"))
        #expect(outcome.stderr.contains("RWS_HOST"))
    }

    @Test func unknownHostKeyFailsWith255AndShowsTheFingerprint() throws {
        let server = try SharedTestServer.get()
        let emptyKnownHosts = home + "-known_hosts"
        let flags = ["--host", "\(server.user)@127.0.0.1:\(server.port)", "--identity", server.clientKeyPath,
                     "--known-hosts", emptyKnownHosts, "-F", "/dev/null"]
        let outcome = try RWSBinary.run(["exec"] + flags + ["--", "true"], home: home)
        #expect(outcome.status == 255)
        #expect(outcome.stderr.contains("SHA256:"))
        #expect(outcome.stderr.contains("--accept-new-host-key"))
    }
}

@Suite struct LoggingTests {
    @Test func verboseLogsTheStepsButNeverThePassword() throws {
        let server = try SharedTestServer.get()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-log-\(UUID().uuidString.prefix(8))").path
        let secret = "s3cret-\(UUID().uuidString)"
        let flags = ["--host", "\(server.user)@127.0.0.1:\(server.port)", "--known-hosts", server.knownHostsPath,
                     "-F", "/dev/null", "--password-env", "RWS_TEST_PASSWORD"]
        let outcome = try RWSBinary.run(["exec", "-vvv"] + flags + ["--", "true"], home: home,
                                        environment: ["RWS_TEST_PASSWORD": secret])
        #expect(outcome.status == 255)
        #expect(outcome.stderr.contains("trying authentication"))
        #expect(outcome.stderr.contains("method=password"))
        #expect(!outcome.stderr.contains(secret))
        #expect(!outcome.stdout.contains(secret))
    }

    @Test func withoutVerboseNothingButTheErrorIsPrinted() throws {
        let server = try SharedTestServer.get()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-log-quiet").path
        let outcome = try RWSBinary.run(["exec"] + server.rwsFlags + ["--", "true"], home: home)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
    }
}
