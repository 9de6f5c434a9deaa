import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Synchronization
import Testing

@Suite struct CloneTests {
    let local = CloneOptions(allowLocal: true)

    @Test(arguments: ServerKind.allCases)
    func cloneOfALocalBareRepositoryReportsEveryPhaseInOrderEndingAt100PercentAndChecksOutTheTree(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let events = Mutex<[CloneEvent]>([])
        let project = try await sandbox.withManager { manager in
            try await manager.cloneProject(from: "file://" + (try TestRepository.path()), name: "app", options: local) { event in
                events.withLock { $0.append(event) }
            }
        }
        let steps = events.withLock { $0 }.compactMap { event -> CloneProgress? in
            if case .progress(let step) = event { return step } else { return nil }
        }
        let phases = steps.map(\.phase)
        #expect(phases == phases.sorted(), "phases arrive in git's order")
        #expect(Set(phases).isSuperset(of: [.counting, .compressing, .receiving, .resolvingDeltas, .checkingOut]))
        #expect(steps.last?.percent == 100)
        let received = try #require(steps.last { $0.phase == .receiving })
        #expect(received.percent == 100 && received.isDone && received.total == received.completed)
        #expect(received.bytes ?? 0 > 0)
        #expect(project.path == sandbox.workspaceRoot + "/app")
        #expect(project.gitBranch == "main")
        #expect(sandbox.exists(sandbox.workspaceRoot + "/app/files/f\(TestRepository.commitCount).txt"))
        #expect(sandbox.workspaceEntries() == ["app"], "no temporary directory is left")
        #expect(project.historyFolders == [sandbox.claudeProjects + "/" + ProjectFolderName.encode(project.path)])
        #expect(sandbox.exists(project.historyFolders[0]))
    }

    @Test(arguments: ServerKind.allCases)
    func branchAndDepthAreHonoured(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let project = try await sandbox.withManager { manager in
            try await manager.cloneProject(
                from: "file://" + (try TestRepository.path()), name: "shallow", branch: "feature",
                depth: 2, options: local)
        }
        #expect(project.gitBranch == "feature")
        #expect(sandbox.exists(project.path + "/feature.txt"))
        let count = try Shell.run("/usr/bin/git", ["-C", project.path, "rev-list", "--count", "HEAD"])
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test(arguments: ServerKind.allCases)
    func theNameIsDerivedFromTheAddress(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let project = try await sandbox.withManager { manager in
            try await manager.cloneProject(from: try TestRepository.path(), depth: 1, options: local)
        }
        #expect(project.name == "source")
    }

    @Test(arguments: ServerKind.allCases)
    func aMissingRepositoryLeavesNothingAndSaysNotFound(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let error = await #expect(throws: ProjectError.self) {
            try await sandbox.withManager { manager in
                try await manager.cloneProject(from: "file://\(sandbox.root)/nothing.git", name: "gone", options: local)
            }
        }
        guard case .repositoryNotFound = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("repository not found") == true)
        #expect(sandbox.workspaceEntries() == [])
    }

    @Test(arguments: ServerKind.allCases)
    func anExistingDestinationIsNeverOverwritten(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        try FileManager.default.createDirectory(atPath: sandbox.workspaceRoot + "/taken", withIntermediateDirectories: true)
        try "mine".write(toFile: sandbox.workspaceRoot + "/taken/keep.txt", atomically: true, encoding: .utf8)
        let error = await #expect(throws: ProjectError.self) {
            try await sandbox.withManager { manager in
                try await manager.cloneProject(from: try TestRepository.path(), name: "taken", options: local)
            }
        }
        #expect(error == .destinationExists(path: sandbox.workspaceRoot + "/taken"))
        #expect(try String(contentsOfFile: sandbox.workspaceRoot + "/taken/keep.txt", encoding: .utf8) == "mine")
        #expect(sandbox.workspaceEntries() == ["taken"])
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingMidTransferStopsGitAndRemovesThePartialDirectory(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let proxy = try FaultProxy(targetPort: sandbox.server.port, link: .init(bytesPerSecond: 150_000))
        defer { proxy.stop() }
        let url = "ssh://\(sandbox.server.user)@127.0.0.1:\(proxy.port)\(try TestRepository.path())"
        let options = CloneOptions(sshOptions: Self.trustedSSH(sandbox.server))
        let receiving = Flag()
        let outcome: Result<Project, any Error> = try await sandbox.withManager { manager in
            let clone = Task {
                try await manager.cloneProject(from: url, name: "slow", options: options) { event in
                    if case .progress(let step) = event, step.phase == .receiving { receiving.set() }
                }
            }
            let reached = try await Eventually.holds(within: .seconds(20), every: .milliseconds(20)) { receiving.isSet }
            try #require(reached, "the clone reached the receiving phase")
            #expect(sandbox.workspaceEntries().contains { $0.hasPrefix(".rws-clone-") }, "the clone is under way")
            clone.cancel()
            return await clone.result
        }
        #expect(throws: ProjectError.cancelled(url: url)) { try outcome.get() }
        #expect(sandbox.workspaceEntries() == [])
        let left = LocalProcessTable.live(containing: "127.0.0.1:\(proxy.port)")
        #expect(left == [], "git was stopped")
    }

    @Test(arguments: ServerKind.allCases)
    func aCloneThatPrintsNothingForTheStallTimeIsStoppedAndRemoved(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let options = CloneOptions(stallTimeout: .seconds(1), sshOptions: ["ProxyCommand=sleep 30"])
        let started = ContinuousClock.now
        let error = await #expect(throws: ProjectError.self) {
            try await sandbox.withManager { manager in
                try await manager.cloneProject(from: "ssh://git@example.invalid/repo.git", name: "quiet", options: options)
            }
        }
        #expect(error == .stalled(url: "ssh://git@example.invalid/repo.git", after: .seconds(1)))
        #expect(error?.description.contains("stalled") == true)
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(sandbox.workspaceEntries() == [])
    }

    @Test(arguments: ServerKind.allCases)
    func anUnknownHostKeyIsNamedAndNothingIsLeft(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let emptyKnownHosts = sandbox.root + "/known_hosts"
        try "".write(toFile: emptyKnownHosts, atomically: true, encoding: .utf8)
        let options = CloneOptions(sshOptions: ["UserKnownHostsFile=\(emptyKnownHosts)", "StrictHostKeyChecking=yes"] + Self.noCredentials)
        let error = await #expect(throws: ProjectError.self) {
            try await sandbox.withManager { manager in
                try await manager.cloneProject(from: "ssh://git@127.0.0.1:\(sandbox.server.port)/repo.git", name: "k", options: options)
            }
        }
        guard case .hostKeyUnknown = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(sandbox.workspaceEntries() == [])
    }

    @Test(arguments: ServerKind.allCases)
    func missingCredentialsAreNamedAsAuthenticationNeeded(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        let options = CloneOptions(sshOptions: ["UserKnownHostsFile=\(sandbox.server.knownHostsPath)"] + Self.noCredentials)
        let error = await #expect(throws: ProjectError.self) {
            try await sandbox.withManager { manager in
                try await manager.cloneProject(from: "ssh://nobody@127.0.0.1:\(sandbox.server.port)/repo.git", name: "a", options: options)
            }
        }
        guard case .authenticationRequired = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(error?.description.hasPrefix("authentication needed") == true)
        #expect(sandbox.workspaceEntries() == [])
    }

    /// ssh options that reach the test sshd with its client key, never reading the real ~/.ssh.
    static func trustedSSH(_ server: TestSSHServer) -> [String] {
        [
            "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "IdentitiesOnly=yes", "IdentityAgent=none",
            "IdentityFile=\(server.clientKeyPath)", "LogLevel=ERROR",
        ]
    }

    static let noCredentials = [
        "IdentitiesOnly=yes", "IdentityAgent=none", "PubkeyAuthentication=no",
        "PasswordAuthentication=no", "KbdInteractiveAuthentication=no",
    ]
}

/// A flag one task sets and another polls.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
}
