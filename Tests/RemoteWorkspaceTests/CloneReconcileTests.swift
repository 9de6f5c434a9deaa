import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Synchronization
import Testing

/// A clone asked for again — after a lost connection, or simply twice — reconciles with what
/// the box holds instead of failing with "destination exists".
@Suite(.timeLimit(.minutes(2))) struct CloneReconcileTests {
    let local = CloneOptions(allowLocal: true)

    @Test func cloningTheSameAddressAgainRecognisesTheFinishedClone() async throws {
        let sandbox = try TestBox()
        let url = "file://" + (try TestRepository.path())
        let first = try await sandbox.withManager { try await $0.cloneProject(from: url, name: "app", options: local) }
        let events = Mutex<[CloneEvent]>([])
        let second = try await sandbox.withManager { manager in
            try await manager.cloneProject(from: url, name: "app", options: local) { event in events.withLock { $0.append(event) } }
        }
        #expect(second.path == first.path && second.gitBranch == "main")
        #expect(
            events.withLock { $0 }.contains(.message("\(sandbox.workspaceRoot)/app is already a complete clone of \(url): nothing to do")))
        #expect(sandbox.workspaceEntries() == ["app"])
    }

    @Test func anotherAddressOrBranchOrAnEditedCheckoutAtThatNameIsStillRefused() async throws {
        let sandbox = try TestBox()
        let url = "file://" + (try TestRepository.path())
        _ = try await sandbox.withManager { try await $0.cloneProject(from: url, name: "app", options: local) }
        let destination = sandbox.workspaceRoot + "/app"
        await #expect(throws: ProjectError.destinationExists(path: destination)) {
            try await sandbox.withManager { try await $0.cloneProject(from: url + "/", name: "app", options: local) }
        }
        await #expect(throws: ProjectError.destinationExists(path: destination)) {
            try await sandbox.withManager { try await $0.cloneProject(from: url, name: "app", branch: "feature", options: local) }
        }
        try "changed\n".write(toFile: destination + "/files/f1.txt", atomically: true, encoding: .utf8)
        await #expect(throws: ProjectError.destinationExists(path: destination)) {
            try await sandbox.withManager { try await $0.cloneProject(from: url, name: "app", options: local) }
        }
    }

    /// How the link to the box is lost: every connection reset, or a black hole found by the
    /// connection's dead-peer timeout (4 s here).
    enum Fault: CaseIterable, Sendable { case cut, blackHole }

    /// When the link is lost: while git's ssh still connects to its server (before any progress;
    /// its link has 400 ms of latency), or while git receives (its link carries 150 kB/s).
    enum Moment: CaseIterable, Sendable { case connecting, receiving }

    @Test(arguments: Fault.allCases, Moment.allCases)
    func aCloneCutOffByALostConnectionSaysWhatTheBoxMayHoldAndTheNextCloneFinishesTheJob(fault: Fault, moment: Moment) async throws {
        let sandbox = try TestBox()
        // git on the box fetches slowly through one proxy; rws reaches the box through another.
        let slow: FaultProxy.Link = moment == .receiving ? .init(bytesPerSecond: 150_000) : .init(latency: .milliseconds(400))
        let gitLink = try FaultProxy(targetPort: sandbox.server.port, link: slow)
        defer { gitLink.stop() }
        let rwsLink = try FaultProxy(targetPort: sandbox.server.port)
        defer { rwsLink.stop() }
        let url = "ssh://\(sandbox.server.user)@127.0.0.1:\(gitLink.port)\(try TestRepository.path())"
        let options = CloneOptions(sshOptions: CloneTests.trustedSSH(sandbox.server))
        let connection = try await SSHConnection.connect(try sandbox.server.configuration(through: rwsLink, deadPeerTimeout: .seconds(4)))
        let receiving = Atomic<Bool>(false), progressed = Atomic<Bool>(false)
        let manager = ProjectManager(connection: connection, locations: sandbox.locations)
        let clone = Task {
            try await manager.cloneProject(from: url, name: "slow", options: options) { event in
                guard case .progress(let step) = event else { return }
                progressed.store(true, ordering: .relaxed)
                if step.phase == .receiving { receiving.store(true, ordering: .relaxed) }
            }
        }
        let reached = try await Eventually.holds(within: .seconds(20), every: .milliseconds(20)) {
            switch moment {
            case .connecting: !LocalProcessTable.live(containing: url).isEmpty
            case .receiving: receiving.load(ordering: .relaxed)
            }
        }
        try #require(reached, "the clone reached the moment \(moment)")
        let early = progressed.load(ordering: .relaxed)
        if moment == .connecting { #expect(!early, "git reported progress before the cut") }
        switch fault {
        case .cut: rwsLink.cutAll()
        case .blackHole: rwsLink.setBlackHole(true)
        }
        let error = await #expect(throws: ProjectError.self) { try await clone.value }
        guard case .interrupted(let operation, _, let boxState) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(operation == "cloning \(url)")
        #expect(boxState.contains("Run the same clone again"))

        let project = try await sandbox.withManager { try await $0.cloneProject(from: url, name: "slow", options: options) }
        #expect(project.path == sandbox.workspaceRoot + "/slow")
        #expect(sandbox.exists(project.path + "/files/f\(TestRepository.commitCount).txt"))
        // Whether the first clone finished on its own or not, only the project is left.
        let settled = ContinuousClock.now + .seconds(30)
        while sandbox.workspaceEntries() != ["slow"], ContinuousClock.now < settled { try await Task.sleep(for: .milliseconds(100)) }
        #expect(sandbox.workspaceEntries() == ["slow"])
        // Nor any git of either clone, nor anything else of rws's there (they name the address or the root).
        func left() -> [LocalProcessTable.Process] {
            LocalProcessTable.live(containing: url) + LocalProcessTable.live(containing: sandbox.workspaceRoot)
        }
        let gitGone = try await Eventually.holds(within: .seconds(30), every: .milliseconds(100)) { left().isEmpty }
        #expect(gitGone, "\(left())")
    }

    @Test func aDeleteAskedAgainAfterItWasCutOffRemovesWhatIsLeft() async throws {
        let sandbox = try TestBox()
        let project = try await sandbox.withManager { try await $0.createProject(name: "app") }
        try sandbox.writeSession(folder: (project.historyFolders[0] as NSString).lastPathComponent, cwd: project.path)
        // What an interrupted delete leaves: the directory gone, the history still there.
        try FileManager.default.removeItem(atPath: project.path)
        let report = try await sandbox.withManager { try await $0.deleteProject(name: "app", includingHistory: true) }
        #expect(report.items == [.init(kind: .historyFolder, path: project.historyFolders[0])])
        #expect(!sandbox.exists(project.historyFolders[0]))
    }

    @Test func aDeleteCutOffByALostConnectionSaysWhatTheBoxMayHold() async throws {
        let sandbox = try TestBox()
        _ = try await sandbox.withManager { try await $0.createProject(name: "big") }
        // Enough files that the removal is still running when the link is cut.
        try Shell.sh("cd \(try ShellQuoting.quote(sandbox.workspaceRoot + "/big")) && seq 1 40000 | xargs touch")
        let link = try FaultProxy(targetPort: sandbox.server.port, link: .init(latency: .milliseconds(200)))
        defer { link.stop() }
        let connection = try await SSHConnection.connect(try sandbox.server.configuration(through: link))
        let manager = ProjectManager(connection: connection, locations: sandbox.locations)
        let delete = Task { try await manager.deleteProject(name: "big") }
        // Cut once the removal runs on the box (or has just ended): its answer is then still at
        // least the link's 200 ms away. A fixed wait was too long on a busy box, and the delete won.
        let big = sandbox.workspaceRoot + "/big"
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, sandbox.exists(big),
            !LocalProcessTable.live(containing: "rm -rf -- ").contains(where: { $0.arguments.hasSuffix("/big") })
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        link.cutAll()
        let error = await #expect(throws: ProjectError.self) { try await delete.value }
        guard case .interrupted(let operation, _, let boxState) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(operation == "deleting big" && boxState.contains("Run the same delete again"))
        // The removal on the box ends, by itself or with its session: none runs on.
        let removalGone = try await Eventually.holds(within: .seconds(30), every: .milliseconds(100)) {
            !LocalProcessTable.live(containing: "rm -rf -- ").contains { $0.arguments.hasSuffix("/big") }
        }
        #expect(removalGone)
    }
}
