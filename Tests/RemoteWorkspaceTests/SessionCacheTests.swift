import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

@Suite struct SessionCacheTests {
    static let id = "33333333-0000-0000-0000-000000000003"

    /// The length of a cache file's index (little-endian at bytes 8..<16), after which its file bytes start.
    static func indexLength(_ cache: Data) -> Int {
        cache[8..<16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    }

    @Test(arguments: ServerKind.allCases)
    func aGrownFileIsReadFromItsOldSizeOnly(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short", "tool_heavy"])
        let path = try sandbox.writeSession(
            Self.id,
            lines: Records.promptChain(400, padding: String(repeating: "x", count: 100), session: Self.id))
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            let appended =
                Records.assistant(
                    "late answer", uuid: "a999", parent: "u400", session: Self.id,
                    time: "2026-03-04T05:06:07.000Z") + "\n"
            let command = "printf '%s' \(try ShellQuoting.quote(appended)) >> \(try ShellQuoting.quote(path))"
            try await Blocking.onThread { try Shell.sh(command) }
            let grown = try await sessions.listing()
            #expect(grown.statistics.filesGrown == 1)
            #expect(grown.statistics.filesRead == 0)
            #expect(grown.statistics.cacheHits == cold.statistics.filesSeen - 1)
            // The stat lines and the appended bytes, nothing of the 50 KB before them.
            #expect(grown.statistics.bytesTransferred < appended.utf8.count + 2_000)
            let session = grown.sessions.first { $0.id == Self.id }
            #expect(session?.summary.lastTimestamp == "2026-03-04T05:06:07.000Z")
            #expect(session?.summary.model == "claude-test")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aCorruptCacheIsIgnoredAndRebuilt(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["chiphuyen", "marot__spotter__short"])
        try await sandbox.withSessions { sessions in
            let expected = try await sessions.listSessions()
            let good = try Data(contentsOf: sandbox.cacheFile)
            var damagedIndex = good
            damagedIndex[40] ^= 0xFF
            for bytes in [damagedIndex, Data("not a cache".utf8), good.prefix(24 + Self.indexLength(good) / 2), good.prefix(30), Data()] {
                try bytes.write(to: sandbox.cacheFile)
                let listing = try await sessions.listing()
                #expect(listing.sessions == expected)
                #expect(!listing.statistics.cacheLoaded)
                #expect(listing.statistics.filesRead == listing.statistics.filesSeen, "a damaged cache is read again")
                let again = try await sessions.listing()
                #expect(again.statistics.cacheHits == again.statistics.filesSeen, "and rebuilt")
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func damagedBytesOfAnEntryAreNotTrustedWhenTheFileGrows(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: Self.id)])
        try await sandbox.withSessions { sessions in
            _ = try await sessions.listing()
            let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
            var bytes = try Data(contentsOf: bytesFile)
            for index in 16..<bytes.count { bytes[index] ^= 0x55 }
            try bytes.write(to: bytesFile)
            let command =
                "printf '%s\\n'" + " \(try ShellQuoting.quote(Records.assistant("hi", uuid: "a1", parent: "u1", session: Self.id))) "
                + ">> \(try ShellQuoting.quote(path))"
            try await Blocking.onThread { try Shell.sh(command) }
            let listing = try await sessions.listing()
            #expect(listing.statistics.cacheLoaded)
            #expect(listing.statistics.filesGrown == 0)
            #expect(listing.statistics.filesRead == 1)
            #expect(listing.sessions.first?.summary.model == "claude-test")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func twoRwsProcessesListingAtOnceLeaveAUsableCache(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["daaain"])
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-home-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let arguments = ["sessions"] + sandbox.server.rwsFlags + ["--claude-dir", sandbox.claudeDirectory, "--json"]
        let outcomes = try await withThrowingTaskGroup(of: RWSBinary.Outcome.self) { group in
            for _ in 0..<3 { group.addTask { try await RWSBinary.run(arguments, home: home) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let log = ((try? String(contentsOfFile: sandbox.server.logPath, encoding: .utf8)) ?? "").split(separator: "\n").suffix(8)
        let said = outcomes.map { "exit \($0.status), \($0.stdout.utf8.count) bytes out: \($0.status == 0 ? "" : $0.stdout) \($0.stderr)" }
        // `rws sessions` runs its two commands one after the other on dropbear 2022.83, which would
        // otherwise abort the connection now and then (docs/servers.md): every process lists.
        #expect(outcomes.allSatisfy { $0.status == 0 && $0.stdout == outcomes[0].stdout }, "\(said); server log: \(log)")
        let cache = SessionListingCache(for: sandbox.server.configuration(), environment: ["HOME": home])
        #expect(FileManager.default.fileExists(atPath: cache.fileURL.path))
        try await sandbox.server.withConnection { connection in
            let sessions = RemoteSessions(
                connection: connection,
                locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: cache)
            let listing = try await sessions.listing()
            #expect(listing.statistics.cacheLoaded)
            #expect(listing.statistics.cacheHits == listing.statistics.filesSeen)
        }
    }

    @Test func theCacheLivesUnderTheUsersCacheFolderPerHost() {
        let xdg = SessionListingCache.location(host: "box", port: 22, user: "me", environment: ["HOME": "/h", "XDG_CACHE_HOME": "/x"])
        let home = SessionListingCache.location(host: "box", port: 22, user: "me", environment: ["HOME": "/h"])
        let other = SessionListingCache.location(host: "box", port: 2222, user: "me", environment: ["HOME": "/h"])
        #expect(xdg.path.hasPrefix("/x/rws/me@box-22-"))
        #expect(home.path.hasPrefix("/h/.cache/rws/me@box-22-"))
        #expect(home.lastPathComponent == "sessions.cache")
        #expect(other.deletingLastPathComponent() != home.deletingLastPathComponent())
    }
}
