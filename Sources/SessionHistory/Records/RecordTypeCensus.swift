/// How many records of each `type` some session files hold, in how many sessions, which Claude
/// Code versions wrote them, and which of those types rws does not know.
///
/// Claude Code adds record types without notice. rws keeps an unknown record raw (it shows up in
/// JSON exports and nowhere else) and never lets it change what it shows of the records it knows;
/// the census is how such types are found and named (`rws record-types`, `rws history -v`).
public struct RecordTypeCensus: Sendable, Equatable {
    /// One record type.
    public struct Entry: Sendable, Equatable {
        /// The `type` string (`(no type)` for a line without one).
        public var type: String
        /// Records of this type.
        public var count: Int
        /// Sessions (files) holding at least one.
        public var sessions: Int
        /// The oldest and newest Claude Code version that wrote one: the record's own `version`,
        /// else the latest one an earlier record of its file named (metadata records carry none).
        public var firstVersion: String?
        /// See ``firstVersion``.
        public var lastVersion: String?
        /// Whether rws decodes this type, or knows it and keeps it raw on purpose.
        public var isKnown: Bool
    }

    /// Every type seen, by name.
    public private(set) var entries: [String: Entry] = [:]

    /// An empty census.
    public init() {}

    /// The census of one session's records.
    public init(records: [SessionRecord]) {
        add(records)
    }

    /// Counts one session's (one file's) records.
    public mutating func add(_ records: [SessionRecord]) {
        var version: String?
        var inThisFile: Set<String> = []
        for record in records {
            version = record.envelope.version ?? version
            let type = record.type ?? "(no type)"
            var entry =
                entries[type]
                ?? Entry(type: type, count: 0, sessions: 0, firstVersion: nil, lastVersion: nil, isKnown: !record.isOfUnknownType)
            entry.count += 1
            if inThisFile.insert(type).inserted { entry.sessions += 1 }
            if let version {
                if entry.firstVersion.map({ Self.isOlder(version, than: $0) }) ?? true { entry.firstVersion = version }
                if entry.lastVersion.map({ Self.isOlder($0, than: version) }) ?? true { entry.lastVersion = version }
            }
            entries[type] = entry
        }
    }

    /// Adds another census (another set of sessions).
    public mutating func merge(_ other: RecordTypeCensus) {
        for (type, theirs) in other.entries {
            guard var entry = entries[type] else {
                entries[type] = theirs
                continue
            }
            entry.count += theirs.count
            entry.sessions += theirs.sessions
            for version in [theirs.firstVersion, theirs.lastVersion].compactMap({ $0 }) {
                if entry.firstVersion.map({ Self.isOlder(version, than: $0) }) ?? true { entry.firstVersion = version }
                if entry.lastVersion.map({ Self.isOlder($0, than: version) }) ?? true { entry.lastVersion = version }
            }
            entries[type] = entry
        }
    }

    /// Every type, the most frequent first (ties by name).
    public var sorted: [Entry] {
        entries.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.type < $1.type }
    }

    /// The types rws does not know, the most frequent first.
    public var unknown: [Entry] { sorted.filter { !$0.isKnown } }

    /// Whether version `a` comes before `b`, comparing dot-separated numbers as numbers
    /// (`2.1.99` before `2.1.337`) and anything else as text.
    static func isOlder(_ a: String, than b: String) -> Bool {
        let left = a.split(separator: ".")
        let right = b.split(separator: ".")
        for (x, y) in zip(left, right) where x != y {
            if let m = Int(x), let n = Int(y) { return m < n }
            return x < y
        }
        return left.count < right.count
    }
}
