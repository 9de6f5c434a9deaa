import Foundation
import RWSTestSupport
import RemoteWorkspace
import Testing

@Suite struct HostileInputTests {
    static let hostileURLs = [
        "--upload-pack=touch CANARY", "ext::sh -c touch% CANARY", "-oProxyCommand=touch CANARY",
        "ssh://-oProxyCommand=touch%20CANARY/x", "ssh://-oProxyCommand=touch/x", "file:///etc", "/etc", "~/x",
        "git@-oProxyCommand=x:repo", "fd::17", "http://example.com/x.git", "https://ex ample.com/x", "ssh://host/x\ntouch CANARY",
    ]
    static let hostileNames = [
        "a/b", "..", "../x", "-rf", ".hidden", "line\nbreak", "$(touch CANARY)", "`touch CANARY`", "it's", "say\"hi\"",
        "a b", "x;touch CANARY", "",
    ]

    @Test(arguments: ServerKind.allCases)
    func hostileAddressesAndNamesAreRefusedBeforeAnythingRunsOnTheBox(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let canary = sandbox.root + "/canary"
        let channels = try await sandbox.withManager { manager in
            let connection = try #require(manager.connection)
            let before = connection.channelsOpened
            for url in Self.hostileURLs.map({ $0.replacingOccurrences(of: "CANARY", with: canary) }) {
                let error = await #expect(throws: ProjectError.self, "\(url)") {
                    try await manager.cloneProject(from: url, name: "x")
                }
                #expect(error?.description.contains("use https://host/path") == true, "\(url): \(String(describing: error))")
            }
            for name in Self.hostileNames.map({ $0.replacingOccurrences(of: "CANARY", with: canary) }) {
                let error = await #expect(throws: ProjectError.self, "\(name)") { try await manager.createProject(name: name) }
                #expect(error?.description.contains("letters, digits") == true, "\(name): \(String(describing: error))")
                await #expect(throws: ProjectError.self) { try await manager.cloneProject(from: "https://h/r.git", name: name) }
            }
            await #expect(throws: ProjectError.self) { try await manager.cloneProject(from: "https://h/r.git", branch: "--upload-pack=x") }
            return connection.channelsOpened - before
        }
        #expect(channels == 0, "nothing reached the box")
        #expect(!sandbox.exists(canary))
        #expect(sandbox.workspaceEntries() == [])
    }

    @Test(arguments: ServerKind.allCases)
    func namesThatReachTheBoxAreQuotedNeverRun(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        // Names may not hold '/', so each attack first changes to $HOME, the sandbox home (sshd starts commands in the real one).
        let canaryName = "canary-\(UUID().uuidString.prefix(8))"
        let canary = sandbox.server.remoteHome + "/" + canaryName
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot, withIntermediateDirectories: true)
        try await sandbox.withManager { manager in
            for name in ["$(cd;touch \(canaryName))", "`cd;touch \(canaryName)`", "x';cd;touch \(canaryName);'", "a b"] {
                await #expect(throws: ProjectError.projectNotFound(name: name, root: sandbox.workspaceRoot)) {
                    try await manager.deleteProject(name: name)
                }
            }
        }
        #expect(!sandbox.exists(canary))
    }

    @Test func validAddressesAreAcceptedAndNamedAfterTheirLastComponent() throws {
        let cases = [
            ("https://github.com/me/app.git", "app"), ("ssh://git@host:2222/srv/tool", "tool"), ("git@github.com:me/lib.git", "lib"),
            ("host.example:repo/", "repo"), ("ssh://[::1]:22/x/y.git", "y"), ("https://h/a/b/.git", "b"),
        ]
        for (url, name) in cases {
            #expect(try CloneSource(url).derivedName == name, "\(url)")
        }
        #expect(try CloneSource("file:///srv/x.git", allowLocal: true).kind == .local)
        #expect(try CloneSource("~/x.git", allowLocal: true).derivedName == "x")
        #expect(try CloneSource("ssh://host/.git").derivedName == nil)
    }

    @Test func newNamesFollowTheStrictRuleAndExistingOnesTheLenientOne() throws {
        for good in ["app", "my-app_2", "v1.2", "A"] { #expect(throws: Never.self) { try ProjectName.validateNew(good) } }
        #expect(throws: ProjectError.self) { try ProjectName.validateNew(String(repeating: "a", count: 101)) }
        #expect(throws: ProjectError.self) { try ProjectName.validateNew("a..b") }
        #expect(throws: Never.self) { try ProjectName.validateExisting("hand made") }
        for bad in ["a/b", ".x", "x\ny"] { #expect(throws: ProjectError.self) { try ProjectName.validateExisting(bad) } }
    }

    @Test func branchesThatCouldBeOptionsOrRangesAreRefused() {
        for bad in ["-b", "a..b", "a b", "x~1", "x:y", "x.lock", "@{-1}", ""] {
            #expect(throws: ProjectError.self, "\(bad)") { try BranchName.validate(bad) }
        }
        #expect(throws: Never.self) { try BranchName.validate("release/1.2") }
    }
}
