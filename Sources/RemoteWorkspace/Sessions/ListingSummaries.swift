import SessionHistory

/// Turns the listed files' bytes into summaries and listings, as ``LocalProject`` does for a
/// local folder: summaries by `leafUuid` gathered over the project's heads, agent files attached
/// to the session their records name, nested subagent files attached to their session.
enum ListingSummaries {
    /// Summarises every file whose bytes were read (since it was last summarised) or whose
    /// project's summaries-by-leaf changed.
    /// Returns the files whose summary needs bytes the listing does not hold (cache damaged).
    static func summarize(_ files: inout [ListedFile], cache: CacheContents) -> [Int] {
        var needBytes: [Int] = []
        var projects: [String: [(name: String, index: Int)]] = [:]
        for index in files.indices {
            projects[files[index].folder + "\u{0}" + files[index].project, default: []].append((files[index].name, index))
        }
        for members in projects.values {
            var leafMap: [String: String] = [:]
            for member in members.filter({ !files[$0.index].leafSummaries.isEmpty }).sorted(by: { $0.name < $1.name }) {
                leafMap.merge(files[member.index].leafSummaries) { _, new in new }
            }
            let digest = self.digest(leafMap)
            for (_, index) in members where !summarize(&files[index], leafMap: leafMap, digest: digest, cache: cache) {
                needBytes.append(index)
            }
        }
        return needBytes
    }

    /// Summarises one file unless its cached summary was made with the same summaries-by-leaf;
    /// false when that needs bytes the listing does not hold.
    private static func summarize(_ file: inout ListedFile, leafMap: [String: String], digest: UInt64, cache: CacheContents) -> Bool {
        // Made from the same bytes with the same summaries-by-leaf: after widening, only the widened
        // files and the projects whose summaries-by-leaf changed are summarised again.
        if file.summary != nil, file.leafMapDigest == digest { return true }
        if file.window == nil, let cached = file.cached {
            if cached.leafMapDigest == digest {
                file.summary = cached.summary
                file.leafMapDigest = digest
                return true
            }
            file.window = cache.window(for: cached)
        }
        guard let window = file.window else { return false }
        file.summary = SessionSummarizer.summarize(
            fileName: file.name, fileSize: window.size, head: window.head, tail: window.tail, summariesByLeaf: leafMap)
        file.leafMapDigest = digest
        return true
    }

    /// Which side of a window read in this listing is too narrow to be sure of the summary, as
    /// the local listing decides it (`ListingWindowPolicy.widening`).
    static func widening(_ file: ListedFile, policy: ListingWindowPolicy) -> (head: Bool, tail: Bool) {
        guard file.wasRead, let summary = file.summary, let window = file.window else { return (false, false) }
        return policy.widening(
            summary, headCount: window.head.count, tailCount: window.tail.count, holdsTitleRecord: file.holdsTitleRecord)
    }

    /// The sessions (agent files attached, not listed), newest first.
    static func listings(_ files: [ListedFile], folders: [ListedFolder], includeUnlisted: Bool) -> [RemoteSessionListing] {
        var nested: [String: [RemoteFile]] = [:]
        for folder in folders {
            for stat in folder.files where !stat.isTopLevelTranscript && isSubagentPath(stat.path) {
                let parts = stat.path.split(separator: "/")
                let key = folder.folder + "\u{0}" + parts[0] + "/" + parts[1]
                nested[key, default: []].append(RemoteFile(path: join(folder.folder, stat.path), size: stat.size, modified: stat.mtime))
            }
        }
        var agents: [String: [RemoteFile]] = [:]
        for file in files where file.isAgentFile {
            guard let parent = file.parentSessionId else { continue }
            agents[file.folder + "\u{0}" + file.project + "/" + parent, default: []].append(remoteFile(file))
        }
        var listings: [RemoteSessionListing] = []
        for file in files where !file.isAgentFile {
            guard var summary = file.summary, includeUnlisted || summary.isListable else { continue }
            let key = file.folder + "\u{0}" + file.project + "/" + summary.id
            let subagents = (nested[key] ?? []).sorted { $0.path < $1.path } + (agents[key] ?? []).sorted { $0.path < $1.path }
            summary.messageCount = file.messageCount
            summary.fillListingFields(
                modificationTime: file.stat.mtime, subagentFileNames: subagents.map { String($0.path.split(separator: "/").last ?? "") })
            listings.append(
                RemoteSessionListing(
                    file: remoteFile(file), projectFolder: file.project, summary: summary, subagentFiles: subagents,
                    fileIdentity: file.stat.identity))
        }
        // Session ids are UUIDs: a continuation is linked across every listed folder.
        let earlier = SessionSummary.continuations(among: listings.map(\.summary))
        for index in listings.indices { listings[index].summary.continuedFrom = earlier[listings[index].id] }
        // Indices sorted, not the listings: moving those (summaries of many strings) cost more than comparing.
        let times = listings.map { $0.summary.lastTimestamp ?? "" }
        return listings.indices.sorted { times[$0] > times[$1] }.map { listings[$0] }
    }

    /// `<project>/<id>/subagents/.../agent-*.jsonl` or its `.meta.json`.
    private static func isSubagentPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 4 && parts[2] == "subagents" && (parts.last?.hasPrefix("agent-") ?? false)
    }

    private static func remoteFile(_ file: ListedFile) -> RemoteFile {
        RemoteFile(path: file.path, size: file.stat.size, modified: file.stat.mtime)
    }

    private static func join(_ folder: String, _ path: String) -> String {
        folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    private static func digest(_ map: [String: String]) -> UInt64 {
        FNV1a.hash(Array(map.sorted { $0.key < $1.key }.map { $0.key + "\u{0}" + $0.value + "\u{1}" }.joined().utf8))
    }
}
