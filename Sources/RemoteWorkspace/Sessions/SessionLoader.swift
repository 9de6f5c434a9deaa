import SSHClient
import SessionHistory

/// Reads a listed session from the box: whole (with its subagent files, in one command), only
/// its last messages (backwards from the end), or what was appended since an earlier load.
enum SessionLoader {
    static func load(
        _ listing: RemoteSessionListing, host: any ScriptHost, options: SessionLoadOptions, link: LinkRate
    ) async throws -> RemoteSession {
        if let last = options.lastMessages {
            let reader = RemoteByteReader(host: host, compressionLevel: level(options.compression, link: link, probing: false))
            return try await loadLast(last, listing, reader: reader, options: options)
        }
        var head: [UInt8] = []
        var transferred = 0
        var level = level(options.compression, link: link, probing: listing.file.size >= LinkRate.probeThreshold)
        if options.compression == .automatic, link.measured == nil, listing.file.size >= LinkRate.probeThreshold {
            (head, transferred) = try await probe(listing, host: host, link: link)
            level = self.level(options.compression, link: link, probing: false)
        }
        let reader = RemoteByteReader(host: host, compressionLevel: level)
        let rest = RemoteByteRange(path: listing.file.path, offset: head.count, length: max(0, listing.file.size - head.count))
        return try await stream(listing, head: head, rest: rest, reader: reader, transferred: transferred, options: options)
    }

    /// Reads the session file as a stream decoded as it arrives, then its subagent files.
    private static func stream(
        _ listing: RemoteSessionListing, head: [UInt8], rest: RemoteByteRange, reader: RemoteByteReader, transferred: Int,
        options: SessionLoadOptions
    ) async throws -> RemoteSession {
        var stream = SessionStream(retention: options.retention)
        var lines = stream.append(head)
        var byteCount = head.count
        var moved = try await reader.stream(rest) { bytes in
            byteCount += bytes.count
            lines.append(stream.append(bytes))
        }
        let followOffset = stream.committedByteOffset
        lines.append(stream.finish())
        var agents: [SubagentSource] = []
        if !listing.subagentFiles.isEmpty {
            let (contents, agentBytes) = try await reader.read(
                listing.subagentFiles.map { RemoteByteRange(path: $0.path, offset: 0, length: $0.size) })
            agents = subagentSources(Array(zip(listing.subagentFiles, contents)))
            moved += agentBytes
        }
        return assemble(
            listing, byteCount: byteCount, followOffset: followOffset, from: 0, records: lines, agents: agents,
            transferred: transferred + moved, options: options)
    }

    /// Where the last complete line of `bytes`, read from `start`, ends.
    private static func followOffset(after bytes: [UInt8], from start: Int) -> Int {
        start + (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
    }

    /// The gzip level for `compression`: a measured link's, else gzip -6 for small reads (round
    /// trips dominate them, and compressing little costs little), and nil (raw) for the probes.
    private static func level(_ compression: TransferCompression, link: LinkRate, probing: Bool) -> Int? {
        switch compression {
        case .none: return nil
        case .gzip(let level): return level
        case .automatic:
            if let rate = link.measured { return LinkRate.level(for: rate) }
            return probing ? nil : 6
        }
    }

    /// Reads the session's first 32 KiB, then the 256 KiB after it, raw and each timed: with a read
    /// taking a round trip plus its bytes over the rate, the two give the rate without the round
    /// trip. A difference shorter than ``LinkRate/ambiguous`` is as much the box's scheduling as
    /// the link (either way: a late first read makes a slow link look fast), so the next 32 KiB
    /// and up to ``LinkRate/confirmingStretch`` after them are timed too, and that pair decides;
    /// near the line (``LinkRate/isNearTheLine(_:)``), where one stall of the box can halve a
    /// rate, a second such pair is timed when the file has room for it, and the faster counts.
    /// The bytes are the file's next ones, not read twice. Returns the bytes read (the file's
    /// start).
    private static func probe(
        _ listing: RemoteSessionListing, host: any ScriptHost, link: LinkRate
    ) async throws -> (bytes: [UInt8], transferred: Int) {
        let reader = RemoteByteReader(host: host, compressionLevel: nil)
        let first = LinkRate.probes.first
        var bytes: [UInt8] = []
        var transferred = 0
        var measurements: [String] = []
        // Times the next pair (from where the last one ended) and keeps its bytes.
        func timeNext(_ lengths: (first: Int, second: Int)) async throws -> TimedPair {
            let pair = try await timedPair(listing.file.path, from: bytes.count, lengths: lengths, reader: reader)
            bytes += pair.bytes
            transferred += pair.transferred
            measurements.append(pair.description)
            return pair
        }
        var pair = try await timeNext(LinkRate.probes)
        let stretch = min(LinkRate.confirmingStretch, listing.file.size - bytes.count - first)
        if pair.difference < LinkRate.ambiguous, stretch > LinkRate.probes.second - first {
            pair = try await timeNext((first, first + stretch))
            let room = listing.file.size - bytes.count - first
            if LinkRate.isNearTheLine(pair.rate), stretch == LinkRate.confirmingStretch, room >= stretch {
                let again = try await timeNext((first, first + stretch))
                if again.rate > pair.rate { pair = again }
            }
        }
        link.record(pair.rate)
        let choice = LinkRate.level(for: pair.rate).map { "gzip -\($0)" } ?? "raw bytes"
        let timings = measurements.joined(separator: "; ")
        host.logger.info("loading \(listing.id): link measured at \(LinkRate.describe(pair.rate)) (\(timings)): \(choice) from here on")
        return (bytes, transferred)
    }

    /// A timed pair's bytes, what crossed the link, the rate it gives, the time between its two
    /// reads and how it is logged.
    private typealias TimedPair = (bytes: [UInt8], transferred: Int, rate: Double, difference: Duration, description: String)

    /// One timed pair of raw reads from `offset`: `lengths.first` bytes, then the
    /// `lengths.second - lengths.first` after them.
    private static func timedPair(
        _ path: String, from offset: Int, lengths: (first: Int, second: Int), reader: RemoteByteReader
    ) async throws -> TimedPair {
        let clock = ContinuousClock()
        var start = clock.now
        let (first, firstMoved) = try await reader.read([RemoteByteRange(path: path, offset: offset, length: lengths.first)])
        let firstTime = start.duration(to: clock.now)
        start = clock.now
        let (second, secondMoved) = try await reader.read([
            RemoteByteRange(path: path, offset: offset + first[0].count, length: lengths.second - lengths.first)
        ])
        let secondTime = start.duration(to: clock.now)
        let extraBytes = Double(second[0].count - first[0].count)
        let difference = secondTime - firstTime
        let rate = difference > .zero && extraBytes > 0 ? extraBytes / seconds(difference) : .infinity
        let description = "\(first[0].count) bytes in \(seconds(firstTime)) s, \(second[0].count) in \(seconds(secondTime)) s"
        return (first[0] + second[0], firstMoved + secondMoved, rate, difference, description)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Reads stretches from the end, each 4× the last, until the conversation they hold has more
    /// than `count` messages (so the first one kept has its predecessor in view) or the file's
    /// start is reached; keeps the last `count`.
    private static func loadLast(
        _ count: Int, _ listing: RemoteSessionListing, reader: RemoteByteReader,
        options: SessionLoadOptions
    ) async throws -> RemoteSession {
        var start = listing.file.size
        var bytes: [UInt8] = []
        var transferred = 0
        var window = options.firstTailWindow
        while true {
            let from = max(0, start - window)
            let (contents, moved) = try await reader.read([RemoteByteRange(path: listing.file.path, offset: from, length: start - from)])
            bytes = contents[0] + bytes
            transferred += moved
            start = from
            let lines = SessionParser.parse(range: bytes, fileOffset: start, startsAtLineStart: start == 0, reachesEndOfFile: true)
            var whole = options
            whole.lastMessages = nil
            var session = assemble(
                listing, byteCount: bytes.count, followOffset: followOffset(after: bytes, from: start), from: start, records: lines,
                agents: [], transferred: transferred, options: whole)
            if start == 0 || session.conversation.messageCount > count {
                session.conversation = session.conversation.suffix(messages: count)
                session.messageLimit = count
                return session
            }
            window = window.multipliedReportingOverflow(by: 4).overflow ? Int.max : window * 4
        }
    }

    /// Reads what was appended since `previous` (same file, not shorter): the records kept plus the
    /// new ones give the conversation; subagent files are read again only when one changed. A
    /// replaced or truncated file is read again as `previous` was (whole, or its last messages).
    static func reload(
        _ previous: RemoteSession, as listing: RemoteSessionListing, host: any ScriptHost,
        options: SessionLoadOptions, link: LinkRate
    ) async throws -> RemoteSession {
        var options = options
        options.lastMessages = previous.messageLimit
        options.retention = previous.retention
        guard listing.fileIdentity == previous.listing.fileIdentity, listing.file.size >= previous.followOffset else {
            return try await load(listing, host: host, options: options, link: link)
        }
        let reader = RemoteByteReader(host: host, compressionLevel: level(options.compression, link: link, probing: false))
        let offset = previous.followOffset
        var ranges = [RemoteByteRange(path: listing.file.path, offset: offset, length: listing.file.size - offset)]
        let agentsChanged = previous.messageLimit == nil && listing.subagentFiles != previous.listing.subagentFiles
        if agentsChanged { ranges += listing.subagentFiles.map { RemoteByteRange(path: $0.path, offset: 0, length: $0.size) } }
        let (contents, transferred) = try await reader.read(ranges)
        var added = SessionParser.parse(range: contents[0], fileOffset: offset, startsAtLineStart: true, reachesEndOfFile: true)
        if options.retention == .conversation { added.records = added.records.map { $0.keepingConversation() } }
        var lines = previous.lines
        lines.records = lines.records.filter { $0.location.byteOffset < offset } + added.records
        lines.issues = lines.issues.filter { $0.location.byteOffset < offset } + added.issues
        let agents = agentsChanged ? subagentSources(Array(zip(listing.subagentFiles, contents.dropFirst()))) : previous.subagentSources
        // The bytes kept end with the line that ends at `offset`.
        return assemble(
            listing, byteCount: offset - previous.firstByteOffset + contents[0].count,
            followOffset: followOffset(after: contents[0], from: offset), from: previous.firstByteOffset,
            records: lines, agents: agents, transferred: transferred, options: options)
    }

    private static func assemble(
        _ listing: RemoteSessionListing, byteCount: Int, followOffset: Int, from start: Int, records lines: ParsedLines,
        agents: [SubagentSource], transferred: Int, options: SessionLoadOptions
    ) -> RemoteSession {
        var conversation = ConversationBuilder.build(records: lines.records, subagentFiles: agents, options: options.conversation)
        if let last = options.lastMessages { conversation = conversation.suffix(messages: last) }
        return RemoteSession(
            listing: listing, lines: lines, conversation: conversation, byteCount: byteCount, firstByteOffset: start,
            followOffset: followOffset, bytesTransferred: transferred, messageLimit: options.lastMessages,
            subagentSources: agents, retention: options.retention)
    }

    /// Agent transcripts with their `.meta.json` sidecars.
    private static func subagentSources(_ files: [(RemoteFile, [UInt8])]) -> [SubagentSource] {
        var metadata: [String: SubagentMetadata] = [:]
        for (file, content) in files where file.path.hasSuffix(".meta.json") {
            metadata[String(file.path.dropLast(".meta.json".count))] = SubagentMetadata(json: content)
        }
        var agents: [SubagentSource] = []
        for (file, content) in files where file.path.hasSuffix(".jsonl") {
            let name = String(file.path.split(separator: "/").last ?? "")
            let agentId = String(name.dropFirst("agent-".count).dropLast(".jsonl".count))
            agents.append(
                SubagentSource(
                    agentId: agentId, fileName: name, records: SessionParser.parse(content).records,
                    metadata: metadata[String(file.path.dropLast(".jsonl".count))]))
        }
        return agents
    }
}
