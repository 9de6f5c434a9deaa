/// A file whose path matches a query, with where it matches.
public struct FileMatch: Sendable, Equatable, Codable {
    /// The path relative to the project's directory (invalid UTF-8 shown as U+FFFD).
    public let path: String
    /// The path's bytes as stored on the box.
    public let pathBytes: [UInt8]
    /// Higher is better; only comparable between matches of one query.
    public let score: Int
    /// The byte offsets in ``pathBytes`` of the query's characters.
    public let positions: [Int]

    /// A match of `path`.
    public init(pathBytes: [UInt8], score: Int, positions: [Int]) {
        self.pathBytes = pathBytes
        path = String(decoding: pathBytes, as: UTF8.self)
        self.score = score
        self.positions = positions
    }

    /// Ranks `paths` against `query`: best score first, then shorter, then by bytes; at most `limit`.
    public static func rank(_ paths: [[UInt8]], query: String, limit: Int) -> [FileMatch] {
        let matcher = FuzzyMatcher(query: query)
        // The best `limit` so far, best first: most matches lose to the last one on score alone.
        var top: [(index: Int, match: FuzzyMatcher.Match)] = []
        func precedes(_ a: Int, _ aScore: Int, _ b: Int, _ bScore: Int) -> Bool {
            if aScore != bScore { return aScore > bScore }
            if paths[a].count != paths[b].count { return paths[a].count < paths[b].count }
            return paths[a].lexicographicallyPrecedes(paths[b])
        }
        guard limit > 0 else { return [] }
        for (index, path) in paths.enumerated() {
            guard let match = matcher.match(path) else { continue }
            if top.count == limit, let last = top.last, !precedes(index, match.score, last.index, last.match.score) { continue }
            let at = top.firstIndex { !precedes($0.index, $0.match.score, index, match.score) } ?? top.count
            top.insert((index, match), at: at)
            if top.count > limit { top.removeLast() }
        }
        // Strings are made for the shown matches only.
        return top.map { FileMatch(pathBytes: paths[$0.index], score: $0.match.score, positions: $0.match.positions) }
    }
}
