import Foundation
import SSHClient

/// Lists the sessions of one box: one remote command for every Claude data folder, ranged reads
/// only for what that command could not settle, and the local cache in between.
struct SessionLister: Sendable {
    let host: any ScriptHost
    /// The `projects` folders on the box (`~/.claude/projects`, ...).
    let folders: [String]
    let cache: SessionListingCache?
    let options: SessionListingOptions

    /// Lists the project folders matching `projectPattern` (globs over folder names, one per line).
    func list(projectPattern: String, includeUnlisted: Bool) async throws -> SessionListing {
        var statistics = ListingStatistics()
        let contents = cache?.load() ?? CacheContents()
        statistics.cacheLoaded = !contents.entries.isEmpty
        // An entry without a message count (listed with counting off, or read by the client) is
        // not named, so that the box reads and counts it again.
        let known = contents.entries.values.filter { !options.countsMessages || $0.messageCount != nil }
            .map { ListingScript.Known(path: $0.path, identity: $0.identity, size: $0.size, mtime: $0.mtime) }
        let input = ListingScript.input(known: known, folders: folders)
        let arguments = ListingScript.arguments(
            inputBytes: input.count, window: options.window, wide: options.widenedWindow, projectPattern: projectPattern,
            countsMessages: options.countsMessages, holdAbove: options.countsBesideWideningAbove, folders: folders)
        // The box counts messages last. A long count (`counting hold`) waits for the client, which
        // reads and widens what it needs meanwhile; else the client does so once the script ended.
        let ((listed, resolved, held), countSections, transferred) = try await ListingScript.script.sections(
            on: host, arguments, input: input, splitAt: "counting"
        ) { sections, marker in
            let listed = try ListedFolder.parse(sections, folders: folders, window: options.window)
            var files = resolveWindows(listed, contents: contents, statistics: &statistics)
            let held = marker == "counting hold"
            if held { try await completeWindows(&files, contents: contents, statistics: &statistics) }
            return (listed, files, held)
        }
        var files = resolved
        if !held { try await completeWindows(&files, contents: contents, statistics: &statistics) }
        statistics.commands += 1
        statistics.bytesTransferred += transferred
        if options.countsMessages {
            let counts = try ListedFolder.counts(in: countSections, folders: folders)
            for index in files.indices {
                files[index].messageCount = counts[files[index].folder]?[files[index].stat.path] ?? files[index].cached?.messageCount
            }
        }
        if let cache { try save(files, listed: listed, pattern: projectPattern, contents: contents, to: cache) }
        return SessionListing(
            sessions: ListingSummaries.listings(files, folders: listed, includeUnlisted: includeUnlisted), statistics: statistics)
    }

    /// Reads what the listing script left to the client, summarises, and widens where the first
    /// windows were not enough.
    private func completeWindows(_ files: inout [ListedFile], contents: CacheContents, statistics: inout ListingStatistics) async throws {
        try await readMissing(&files, statistics: &statistics)
        let needBytes = ListingSummaries.summarize(&files, cache: contents)
        if !needBytes.isEmpty {
            try await readInitial(needBytes, of: &files, statistics: &statistics)
            _ = ListingSummaries.summarize(&files, cache: contents)
        }
        try await widen(&files, statistics: &statistics)
    }

    private func resolveWindows(_ listed: [ListedFolder], contents: CacheContents, statistics: inout ListingStatistics) -> [ListedFile] {
        var files: [ListedFile] = []
        for folder in listed {
            for stat in folder.files where stat.isTopLevelTranscript {
                var file = ListedFile(folder: folder.folder, stat: stat)
                ListingWindows.resolve(&file, in: folder, cache: contents, window: options.window)
                file.holdsTitleRecord = folder.titled.contains(stat.path)
                if file.cached != nil { statistics.cacheHits += 1 }
                if file.wasRead, folder.ranges[stat.path] != nil {
                    statistics.filesGrown += 1
                } else if file.wasRead {
                    statistics.filesRead += 1
                }
                files.append(file)
            }
        }
        statistics.filesSeen = files.count
        return files
    }

    /// Reads head and tail of files the script left to the client (renamed, or damaged in the cache).
    private func readMissing(_ files: inout [ListedFile], statistics: inout ListingStatistics) async throws {
        let missing = files.indices.filter { files[$0].window == nil && files[$0].cached == nil }
        try await readInitial(missing, of: &files, statistics: &statistics)
    }

    private func readInitial(_ indices: [Int], of files: inout [ListedFile], statistics: inout ListingStatistics) async throws {
        guard !indices.isEmpty else { return }
        let perFile = indices.map { ListingWindows.initialRanges(for: files[$0], window: options.window) }
        let (contents, transferred) = try await RemoteByteReader(host: host).read(perFile.flatMap { $0 })
        statistics.commands += 1
        statistics.bytesTransferred += transferred
        var position = 0
        for (index, ranges) in zip(indices, perFile) {
            files[index].cached = nil
            ListingWindows.takeInitial(contents[position..<(position + ranges.count)], into: &files[index], window: options.window)
            position += ranges.count
            statistics.filesRead += 1
        }
    }

    /// Reads the wide window where the first one left the summary unsure, then summarises again.
    private func widen(_ files: inout [ListedFile], statistics: inout ListingStatistics) async throws {
        let requests = files.indices.compactMap { index -> WideningScript.Request? in
            let (head, tail) = ListingSummaries.widening(files[index], policy: options.policy)
            return head || tail ? WideningScript.Request(index: index, head: head, tail: tail) : nil
        }
        if !requests.isEmpty {
            let (bytes, commands) = try await WideningScript.widen(requests, files: &files, wide: options.widenedWindow, host: host)
            statistics.bytesTransferred += bytes
            statistics.commands += commands
            statistics.filesWidened = requests.count
            _ = ListingSummaries.summarize(&files, cache: CacheContents())
        }
        try await growTails(&files, statistics: &statistics)
    }

    /// Grows the tails that, read wide, still hold no record telling the session's state (its
    /// last record is larger than the window): fourfold a round, as the local listing does.
    private func growTails(_ files: inout [ListedFile], statistics: inout ListingStatistics) async throws {
        struct Step: Hashable {
            var size: Int
            var held: Int
        }
        // A tail that did not grow (the file changed or went meanwhile) is not asked for again.
        var stalled = Set<Int>()
        while true {
            var bySteps: [Step: [WideningScript.Request]] = [:]
            var before: [Int: Int] = [:]
            for index in files.indices where !stalled.contains(index) {
                guard files[index].wasRead, let summary = files[index].summary, let window = files[index].window,
                    let size = options.policy.tailGrowth(summary, tail: window.tail)
                else { continue }
                before[index] = window.tail.count
                bySteps[Step(size: size, held: window.tail.count), default: []].append(
                    WideningScript.Request(index: index, head: false, tail: true))
            }
            guard !bySteps.isEmpty else { return }
            for (step, requests) in bySteps {
                // Only the bytes before the tail held cross the link.
                let (bytes, commands) = try await WideningScript.widen(
                    requests, files: &files, wide: step.size, held: step.held, host: host)
                statistics.bytesTransferred += bytes
                statistics.commands += commands
                statistics.tailsGrown += requests.count
            }
            for (index, count) in before where files[index].window?.tail.count ?? count <= count { stalled.insert(index) }
            _ = ListingSummaries.summarize(&files, cache: CacheContents())
        }
    }

    /// Writes the cache when anything changed: the files listed now, plus the entries of folders
    /// and projects this listing did not look at.
    private func save(
        _ files: [ListedFile], listed: [ListedFolder], pattern: String, contents: CacheContents, to cache: SessionListingCache
    ) throws {
        let covered = Set(files.map(\.path))
        let removed = contents.entries.keys.contains { !covered.contains($0) && Self.isInScope($0, folders: folders, pattern: pattern) }
        guard removed || files.contains(where: { $0.wasRead || $0.cached == nil || $0.leafMapDigest != $0.cached?.leafMapDigest }) else {
            return
        }
        var entries: [(CachedSession, CacheFileFormat.EntryBytes)] = []
        for file in files {
            guard let entry = file.cacheEntry,
                let bytes = file.window.map(CacheFileFormat.EntryBytes.window) ?? file.cached.flatMap(contents.entryBytes(for:))
            else { continue }
            entries.append((entry, bytes))
        }
        for (path, entry) in contents.entries where !covered.contains(path) && !Self.isInScope(path, folders: folders, pattern: pattern) {
            if let bytes = contents.entryBytes(for: entry) { entries.append((entry, bytes)) }
        }
        try cache.save(entries, loadedGeneration: contents.generation)
    }

    /// Whether a cached path lies in a project folder this listing covered (so its absence means it was deleted).
    static func isInScope(_ path: String, folders: [String], pattern: String) -> Bool {
        for folder in folders {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            guard path.hasPrefix(prefix) else { continue }
            let project = String(path.dropFirst(prefix.count).prefix { $0 != "/" })
            return pattern.split(separator: "\n").contains { fnmatch(String($0), project, 0) == 0 }
        }
        return false
    }
}
