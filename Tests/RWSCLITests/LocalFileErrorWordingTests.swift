import Foundation
import RWSTestSupport
import Testing

/// Every error path that touches a file on this machine, driven through the `rws` binary: the
/// message names the path, says what happened in the C library's words (`strerror`), and never
/// carries Foundation's wording.
@Suite struct LocalFileErrorWordingTests {
    static let foundationWording = ["NSCocoaErrorDomain", "The operation could not be completed", "The file “", "Error Domain="]
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rws-wording-\(UUID().uuidString.prefix(8))").path

    private struct Case {
        let name: String
        let arguments: [String]
        let status: Int32
        let expected: [String]
        var environment: [String: String] = [:]
    }

    private func run(_ failure: Case) async throws {
        let home = scratch + "/home"
        let outcome = await InProcessRWS.run(failure.arguments, home: home, environment: failure.environment)
        let message = outcome.stderr
        #expect(outcome.status == failure.status, "\(failure.name): exit \(outcome.status): \(message)")
        for text in failure.expected { #expect(message.contains(text), "\(failure.name): \(message) lacks \(text)") }
        for wording in Self.foundationWording { #expect(!message.contains(wording), "\(failure.name): \(message)") }
    }

    private func session(at path: String) throws {
        let line = #"{"type":"user","parentUuid":null,"uuid":"u1","message":{"role":"user","content":"hello"}}"#
        try (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func localFilesWithoutAServer() async throws {
        try FileManager.default.createDirectory(atPath: scratch + "/home/.ssh", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch + "/folder.jsonl", withIntermediateDirectories: true)
        try session(at: scratch + "/s.jsonl")
        let cases = [
            Case(
                name: "export -o into a missing folder",
                arguments: ["export", scratch + "/s.jsonl", "-o", scratch + "/no/such/out.md"], status: 1,
                expected: ["cannot write \(scratch)/no/such/out.md: No such file or directory", "its folder does not exist"]),
            Case(
                name: "a session path that is a folder", arguments: ["history", scratch + "/folder.jsonl"], status: 1,
                expected: ["cannot read \(scratch)/folder.jsonl: Is a directory"]),
            Case(
                name: "--image missing",
                arguments: ["ask", "--host", "127.0.0.1:9", "--permission-mode", "plan", "--image", scratch + "/shot.png", "hi"],
                status: 1, expected: ["cannot attach \(scratch)/shot.png: No such file or directory"]),
            Case(
                name: "--image a folder",
                arguments: ["ask", "--host", "127.0.0.1:9", "--permission-mode", "plan", "--image", scratch, "hi"],
                status: 1, expected: ["cannot attach \(scratch): Is a directory"]),
            Case(
                name: "-F missing", arguments: ["config", "show", "--host", "box", "-F", scratch + "/no-config"], status: 1,
                expected: [scratch + "/no-config", "no such file"]),
            Case(
                name: "-F a folder", arguments: ["config", "show", "--host", "box", "-F", scratch], status: 1,
                expected: [scratch, "it is a directory"]),
            Case(
                name: "--local missing", arguments: ["sessions", "--local", scratch + "/no-project"], status: 66,
                expected: ["--local \(scratch)/no-project: no such folder"]),
        ]
        for failure in cases { try await run(failure) }
    }

    @Test func keysKnownHostsAndCacheAgainstAServer() async throws {
        let box = try TestBox()
        defer { box.remove() }
        let server = box.server
        try FileManager.default.createDirectory(atPath: scratch + "/home", withIntermediateDirectories: true)
        let target = ["--host", "\(server.user)@127.0.0.1:\(server.port)", "-F", server.directory.path + "/empty_ssh_config"]
        let key = ["--identity", server.clientKeyPath]
        let known = ["--known-hosts", server.knownHostsPath]
        let readOnly = scratch + "/known_hosts"
        try "# mine\n".write(toFile: readOnly, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        let asRoot = getuid() == 0
        if asRoot { try Shell.run("/usr/bin/chattr", ["+i", readOnly]) }
        defer { if asRoot { _ = try? Shell.run("/usr/bin/chattr", ["-i", readOnly]) } }
        let claude = box.claudeDirectory
        try FileManager.default.createDirectory(atPath: box.claudeProjects + "/-p", withIntermediateDirectories: true)
        try session(at: box.claudeProjects + "/-p/11111111-0000-0000-0000-000000000001.jsonl")
        let cacheFile = scratch + "/cache-is-a-file"
        try "x".write(toFile: cacheFile, atomically: true, encoding: .utf8)
        let cases = [
            Case(
                name: "--identity missing", arguments: ["exec"] + target + known + ["--identity", scratch + "/id_missing", "--", "true"],
                status: 64, expected: ["identity file \(scratch)/id_missing does not exist"]),
            Case(
                name: "--identity a folder", arguments: ["exec"] + target + known + ["--identity", scratch, "--", "true"],
                status: 255, expected: ["cannot read private key \(scratch): Is a directory"]),
            Case(
                name: "known_hosts a folder", arguments: ["exec"] + target + key + ["--known-hosts", scratch, "--", "true"],
                status: 255, expected: ["known hosts file \(scratch): cannot be read: Is a directory"]),
            Case(
                name: "known_hosts read-only under accept-new",
                arguments: ["exec"] + target + key + ["--known-hosts", readOnly, "--accept-new-host-key", "--", "true"],
                status: 255,
                expected: [
                    "known hosts file \(readOnly): cannot append the new host key: "
                        + (asRoot ? "Operation not permitted" : "Permission denied"), "chmod u+w",
                ]),
            Case(
                name: "cache folder not creatable", arguments: ["sessions"] + target + key + known + ["--claude-dir", claude],
                status: 1, expected: ["cannot write the session listing cache \(cacheFile)/rws/", "Not a directory", "XDG_CACHE_HOME"],
                environment: ["XDG_CACHE_HOME": cacheFile]),
        ]
        for failure in cases { try await run(failure) }
    }
}
