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
