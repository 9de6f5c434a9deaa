import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `acceptNew` against known_hosts files as long-used `~/.ssh` folders hold them: written by
/// OpenSSH's own tools, and read back by `ssh-keygen -F` after rws appended to them.
@Suite struct KnownHostsAsPeopleHaveItTests {
    private let forbiddenWording = ["NSCocoaErrorDomain", "The operation could not be completed", "The file"]

    private func scratchDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-known-hosts-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Lines for other hosts, as `ssh-keyscan -H` and `ssh-keygen -H` leave them: hashed and plain.
    private func lived(in directory: String, server: TestSSHServer) throws -> String {
        let scanned = try Shell.run("/usr/bin/ssh-keyscan", ["-H", "-p", "\(server.port)", "-t", "ed25519", "localhost"])
        #expect(scanned.contains("|1|"), "ssh-keyscan -H gave no hashed line: \(scanned)")
        let other = directory + "/other"
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other])
        let otherKey = try publicKey(other + ".pub")
        let plain = directory + "/plain"
        try "build.example.org,10.1.2.3 \(otherKey)\ngit.example.org \(otherKey)\n".write(toFile: plain, atomically: true, encoding: .utf8)
        try Shell.run("/usr/bin/ssh-keygen", ["-H", "-f", plain])
        let hashed = try String(contentsOfFile: plain, encoding: .utf8)
        return "# my hosts\n" + scanned.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n" + hashed
            + "old.example.org \(otherKey)\n"
    }

    private func publicKey(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    private func acceptNew(_ server: TestSSHServer, knownHosts: String) -> SSHConnectionConfiguration {
        var configuration = server.configuration()
        configuration.knownHostsFile = knownHosts
        configuration.hostKeyPolicy = .acceptNew
        return configuration
    }

    /// Connects under acceptNew, then checks OpenSSH finds the new entry and every old one, and
    /// that strict checking now trusts the server.
    private func expectAppended(_ server: TestSSHServer, to file: String, keeping oldHosts: [String]) async throws {
        var configuration = acceptNew(server, knownHosts: file)
        await (try await SSHConnection.connect(configuration)).close()
        let found = try Shell.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(server.port)", "-f", file])
        #expect(found.contains(try publicKey(server.directory.path + "/host_ed25519.pub")))
        for host in oldHosts {
            #expect((try? Shell.run("/usr/bin/ssh-keygen", ["-F", host, "-f", file]))?.isEmpty == false, "\(host) was lost")
        }
        configuration.hostKeyPolicy = .strict
        await (try await SSHConnection.connect(configuration)).close()
    }

    @Test(arguments: ServerKind.allCases)
    func acceptNewAppendsToAFileWithPlainAndHashedEntries(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let directory = try scratchDirectory()
        let file = directory + "/known_hosts"
        try lived(in: directory, server: server).write(toFile: file, atomically: true, encoding: .utf8)
        try await expectAppended(
            server, to: file, keeping: ["[localhost]:\(server.port)", "build.example.org", "10.1.2.3", "old.example.org"])
    }

    @Test(arguments: ServerKind.allCases)
    func acceptNewAppendsPastCertAuthorityAndRevokedLines(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let directory = try scratchDirectory()
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory + "/ca"])
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory + "/stolen"])
        let file = directory + "/known_hosts"
        let markers =
            "@cert-authority *.corp.example.org \(try publicKey(directory + "/ca.pub"))\n"
            + "@revoked * \(try publicKey(directory + "/stolen.pub"))\n"
        try (markers + lived(in: directory, server: server)).write(toFile: file, atomically: true, encoding: .utf8)
        try await expectAppended(server, to: file, keeping: ["[localhost]:\(server.port)", "old.example.org"])
        let contents = try String(contentsOfFile: file, encoding: .utf8)
        #expect(contents.hasPrefix(markers), "the marker lines must stay as they were")
    }

    @Test(arguments: ServerKind.allCases)
    func acceptNewAppendsToACRLFFileWithoutAFinalNewline(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let directory = try scratchDirectory()
        let file = directory + "/known_hosts"
        let crlf = try lived(in: directory, server: server).split(separator: "\n").joined(separator: "\r\n")
        try crlf.write(toFile: file, atomically: true, encoding: .utf8)
        try await expectAppended(server, to: file, keeping: ["[localhost]:\(server.port)", "build.example.org"])
        let contents = try String(contentsOfFile: file, encoding: .utf8)
        #expect(contents.hasPrefix(crlf + "\n"), "the old lines must stay byte for byte, the new one on a line of its own")
        // The CRLF entries are read too: the server known under its other name is still trusted.
        var configuration = server.configuration()
        configuration.host = "localhost"
        configuration.knownHostsFile = file
        await (try await SSHConnection.connect(configuration)).close()
    }

    @Test(arguments: ServerKind.allCases)
    func acceptNewAppendsThroughASymlinkedSSHFolder(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let directory = try scratchDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/dotfiles/ssh", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/home/.ssh", withDestinationPath: directory + "/dotfiles/ssh")
        try lived(in: directory, server: server).write(toFile: directory + "/dotfiles/ssh/known_hosts", atomically: true, encoding: .utf8)
        try await expectAppended(server, to: directory + "/home/.ssh/known_hosts", keeping: ["old.example.org"])
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/home/.ssh")
        #expect(link == directory + "/dotfiles/ssh", "the folder link must stay a link")
        let real = try Shell.run(
            "/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(server.port)", "-f", directory + "/dotfiles/ssh/known_hosts"])
        #expect(!real.isEmpty, "the key must land in the file the link points to")
    }

    @Test(arguments: ServerKind.allCases)
    func aReadOnlyFileGivesAnErrorThatSaysWhatToDo(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let directory = try scratchDirectory()
        let file = directory + "/known_hosts"
        let before = try lived(in: directory, server: server)
        try before.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        // Permission bits do not bind root; the immutable flag does.
        let asRoot = getuid() == 0
        if asRoot { try Shell.run("/usr/bin/chattr", ["+i", file]) }
        defer { if asRoot { _ = try? Shell.run("/usr/bin/chattr", ["-i", file]) } }
        do {
            _ = try await SSHConnection.connect(acceptNew(server, knownHosts: file))
            Issue.record("a read-only known_hosts file was written to")
        } catch let error as SSHError {
            guard case .knownHostsFileFailed = error else {
                Issue.record("expected knownHostsFileFailed, got \(error)")
                return
            }
            let message = error.description
            #expect(message.contains(file) && message.contains("cannot append the new host key"))
            #expect(message.contains(asRoot ? "Operation not permitted" : "Permission denied"))
            #expect(message.contains("chmod u+w") && message.contains("UserKnownHostsFile"))
            for wording in forbiddenWording { #expect(!message.contains(wording), "\(message)") }
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    }

    @Test(arguments: ServerKind.allCases)
    func aRevokedKeyIsRefusedUnderEveryPolicy(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let serverKey = try publicKey(server.directory.path + "/host_ed25519.pub")
        for hosts in ["[127.0.0.1]:\(server.port)", "*", "hashed"] {
            let directory = try scratchDirectory()
            let file = directory + "/known_hosts"
            var revokedLine = "@revoked \(hosts) \(serverKey)\n"
            if hosts == "hashed" {
                // A hashed name, as `ssh-keygen -H` writes it, behind the marker.
                try "[127.0.0.1]:\(server.port) \(serverKey)\n".write(toFile: directory + "/h", atomically: true, encoding: .utf8)
                try Shell.run("/usr/bin/ssh-keygen", ["-H", "-f", directory + "/h"])
                revokedLine = "@revoked " + (try String(contentsOfFile: directory + "/h", encoding: .utf8))
            }
            // Also listed as trusted: revocation wins, as in OpenSSH.
            let before = revokedLine + "[127.0.0.1]:\(server.port) \(serverKey)\n"
            try before.write(toFile: file, atomically: true, encoding: .utf8)
            for policy in [HostKeyPolicy.acceptNew, .strict] {
                var configuration = acceptNew(server, knownHosts: file)
                configuration.hostKeyPolicy = policy
                do {
                    _ = try await SSHConnection.connect(configuration)
                    Issue.record("a @revoked key (\(hosts)) was accepted under \(policy)")
                } catch let error as SSHError {
                    guard case .hostKeyRevoked = error else {
                        Issue.record("expected hostKeyRevoked, got \(error)")
                        continue
                    }
                    #expect(error.description.contains("@revoked") && error.description.contains(file))
                }
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        }
        // A revocation for another host leaves this one alone.
        let directory = try scratchDirectory()
        let file = directory + "/known_hosts"
        try "@revoked other.example.org \(serverKey)\n".write(toFile: file, atomically: true, encoding: .utf8)
        try await expectAppended(server, to: file, keeping: [])
    }
}
