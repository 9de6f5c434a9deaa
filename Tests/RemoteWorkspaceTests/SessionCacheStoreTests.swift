import Foundation
import Platform
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// The cache's byte file is only appended to: a listing that read a few files writes only their
/// bytes, and the file is written anew once most of it is bytes nothing points at.
@Suite struct SessionCacheStoreTests {
    static let id = "33333333-0000-0000-0000-000000000004"

    @Test func aGrownListingAppendsOnlyTheGrownFilesBytes() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short", "tool_heavy", "chiphuyen"])
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: Self.id)])
        let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            let before = try Self.size(bytesFile)
            let index = try Data(contentsOf: sandbox.cacheFile)
            #expect(before > 20_000, "the corpus files' windows are stored")
            try Self.append(Records.assistant("hi", uuid: "a1", parent: "u1", session: Self.id), to: path)
            let grown = try await sessions.listing()
            #expect(grown.statistics.filesGrown == 1)
            let added = try Self.size(bytesFile) - before
            #expect(added > 0 && added < 2_000, "only the grown file's bytes are appended, not \(added)")
            #expect(try Data(contentsOf: sandbox.cacheFile) != index, "the index says where they are")
            let warm = try await sessions.listing()
            #expect(warm.statistics.cacheHits == warm.statistics.filesSeen)
            #expect(warm.sessions.count == cold.sessions.count)
            #expect(warm.sessions.first { $0.id == Self.id }?.summary.model == "claude-test")
        }
    }

    @Test func theCacheFilesAreReplacedWholeReadableOnlyByTheUserAndLeaveNoTemporaryFile() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short"])
        let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
        try await sandbox.withSessions { sessions in _ = try await sessions.listing() }
        for file in [sandbox.cacheFile, bytesFile] {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file.lastPathComponent): \(String(mode ?? 0, radix: 8))")
        }
        let folder = sandbox.cacheFile.deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") } == [])
        #expect(throws: SystemCallError.self) {
            try SystemCall.replaceFile(folder + "/missing/cache", contents: Data([1]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") } == [])
    }

    /// A compaction writes the byte file a piece at a time (a megabyte; 10 kB here, so that the
    /// corpus fills many): every session's kept bytes are read back intact from where the index
    /// says, and each grown file is summarised from them and its appended bytes as a listing
    /// without a cache summarises the whole file.
    @Test func aByteFileWrittenInManyPiecesKeepsEveryEntrysBytes() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus()
        let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
        var cache = SessionListingCache(fileURL: sandbox.cacheFile)
        cache.compactionPiece = 10_000
        try await sandbox.withHost { host in
            let locations = WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory])
            let sessions = RemoteSessions(host: host, locations: locations, cache: cache)
            let cold = try await sessions.listing()
            #expect(try Self.size(bytesFile) > 50 * cache.compactionPiece, "the corpus's windows fill many pieces")
            for listed in cold.sessions {
                try Self.append(
                    Records.assistant("one more", uuid: "m-\(listed.id)", parent: "p", session: listed.id), to: listed.file.path)
            }
            let grown = try await sessions.listing()
            #expect(grown.statistics.filesGrown >= cold.sessions.count && grown.statistics.filesRead == 0)
            let uncached = try await RemoteSessions(host: host, locations: locations, cache: nil).listing()
            #expect(grown.sessions.map(\.summary) == uncached.sessions.map(\.summary))
        }
    }

    /// The byte file is replaced through a private file beside it: dropped before its commit (a
    /// piece could not be written), it leaves the old file as it was and nothing beside it.
    @Test func aReplacementDroppedBeforeItsCommitLeavesTheOldFileAndNoTemporaryFile() throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        let folder = sandbox.cacheFile.deletingLastPathComponent().path
        try SystemCall.makeDirectories(folder, mode: 0o700)
        let path = folder + "/replaced"
        try SystemCall.replaceFile(path, contents: Data("old".utf8))
        do {
            var file = try ReplacingFile(path: path)
            try file.write(Array("new, never committed".utf8))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        var file = try ReplacingFile(path: path)
        try file.write(Array("first piece, ".utf8))
        try file.write(Array("second piece".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old", "nothing shows before the commit")
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first piece, second piece")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["replaced"])
    }

    @Test func aByteFileMostlyUnusedIsWrittenAnewAndStillServesEveryEntry() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short", "tool_heavy"])
        let path = try sandbox.writeSession(
            Self.id, lines: [Records.user(String(repeating: "long prompt ", count: 2_000), uuid: "u1", parent: nil, session: Self.id)])
        let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
        var cache = SessionListingCache(fileURL: sandbox.cacheFile)
        cache.compactionFloor = 0
        try await sandbox.withHost { host in
            let sessions = RemoteSessions(
                host: host, locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: cache)
            let expected = try await sessions.listSessions()
            let compactSize = try Self.size(bytesFile)
            var sizes: [Int] = []
            for round in 1...12 {
                try Self.append(
                    Records.assistant(String(repeating: "answer \(round) ", count: 300), uuid: "a\(round)", parent: "u1", session: Self.id),
                    to: path)
                _ = try await sessions.listing()
                sizes.append(try Self.size(bytesFile))
            }
            #expect(sizes.contains { $0 < sizes.max()! }, "the file shrank at least once: \(compactSize) then \(sizes)")
            #expect(sizes.allSatisfy { $0 <= 2 * compactSize + 50_000 }, "never more unused than used: \(compactSize) then \(sizes)")
            let warm = try await sessions.listing()
            #expect(warm.statistics.cacheHits == warm.statistics.filesSeen)
            #expect(warm.sessions.map(\.id) == expected.map(\.id))
        }
    }

    @Test func aByteFileOfAnotherGenerationIsNotTrustedAndTheCacheIsRebuilt() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short", "tool_heavy"])
        let bytesFile = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("bytes")
        try await sandbox.withSessions { sessions in
            let expected = try await sessions.listSessions()
            // Another process compacted the byte file after this index was written: same bytes, new generation.
            var bytes = try Data(contentsOf: bytesFile)
            bytes[8] ^= 0xFF
            try bytes.write(to: bytesFile)
            let listing = try await sessions.listing()
            #expect(!listing.statistics.cacheLoaded)
            #expect(listing.sessions == expected)
            let again = try await sessions.listing()
            #expect(again.statistics.cacheHits == again.statistics.filesSeen, "and rebuilt")
        }
    }

    @Test func twoListingsAppendingAtOnceLeaveACacheThatServesEveryEntry() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short", "tool_heavy", "chiphuyen"])
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: Self.id)])
        try await sandbox.withSessions { sessions in
            let expected = try await sessions.listSessions()
            for round in 1...5 {
                try Self.append(Records.assistant("answer \(round)", uuid: "a\(round)", parent: "u1", session: Self.id), to: path)
                async let first = sessions.listing()
                async let second = sessions.listing()
                let (one, two) = try await (first, second)
                #expect(one.sessions.map(\.id) == expected.map(\.id) && two.sessions.map(\.id) == expected.map(\.id))
            }
            let warm = try await sessions.listing()
            #expect(warm.statistics.cacheHits == warm.statistics.filesSeen)
            #expect(warm.sessions.first { $0.id == Self.id }?.summary.messageCount == 6)
        }
    }

    /// A project folder whose name holds spaces, `%`, quotes and a backslash: its session is
    /// listed new, then grown (read from its old size, its bytes appended to the cache).
    @Test(arguments: ScriptPlace.allCases)
    func aSessionInAFolderWithSpacesAndShellCharactersIsListedNewAndGrown(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(
            Self.id, folder: #"-home-dev-my app %d 'q' "x" \n"#,
            lines: Records.promptChain(60, padding: String(repeating: "y", count: 300), session: Self.id))
        try await sandbox.withSessions { sessions in
            let cold = try await sessions.listing()
            #expect(cold.sessions.map(\.id) == [Self.id])
            #expect(cold.sessions.first?.summary.messageCount == 60)
            try Self.append(
                Records.assistant("late", uuid: "a1", parent: "u60", session: Self.id, time: "2026-03-04T05:06:07.000Z"), to: path)
            let grown = try await sessions.listing()
            #expect(grown.statistics.filesGrown == 1 && grown.statistics.filesRead == 0)
            #expect(grown.sessions.first?.summary.messageCount == 61)
            #expect(grown.sessions.first?.summary.lastTimestamp == "2026-03-04T05:06:07.000Z")
        }
    }

    /// rws processes listing at once take turns writing the cache (`sessions.lock` beside it), so
    /// the index written last names the byte file left last: a listing waits while another holds it.
    @Test func aListingWritesTheCacheOnlyOnceAnotherWriterIsDone() async throws {
        let sandbox = try TestBox(place: .local)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["marot__spotter__short"])
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: Self.id)])
        let lockPath = sandbox.cacheFile.deletingPathExtension().appendingPathExtension("lock").path
        try await sandbox.withSessions { sessions in
            _ = try await sessions.listing()
            let index = try Data(contentsOf: sandbox.cacheFile)
            try Self.append(Records.assistant("hi", uuid: "a1", parent: "u1", session: Self.id), to: path)
            let other = try FileLock(path: lockPath, mode: 0o600, waitingUpTo: .zero)
            let held = other.isHeld
            #expect(held)
            let started = ContinuousClock.now
            let listing = Task { try await sessions.listing() }
            // A local listing of two files takes milliseconds: one still running after a second waits.
            // The wait is a thread's, not a task's: on a busy machine a task may resume seconds late,
            // and past its 5 s the listing stops waiting and saves anyway (SessionListingCache.save).
            usleep(1_000_000)
            let unchanged = try Data(contentsOf: sandbox.cacheFile) == index
            let looked = ContinuousClock.now - started
            #expect(looked < .seconds(5), "the look came after the listing's 5 s wait: the machine stalled for \(looked)")
            #expect(unchanged || looked >= .seconds(5), "no index written while another writer holds the lock")
            other.release()
            let grown = try await listing.value
            #expect(grown.statistics.filesGrown == 1)
            #expect(try Data(contentsOf: sandbox.cacheFile) != index)
            #expect(try await sessions.listing().statistics.cacheHits == grown.statistics.filesSeen)
        }
    }

    private static func size(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? -1
    }

    private static func append(_ line: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }
}
