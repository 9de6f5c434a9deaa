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
        var found: [(index: Int, match: FuzzyMatcher.Match)] = []
        for (index, path) in paths.enumerated() {
            if let match = matcher.match(path) { found.append((index, match)) }
        }
        // Strings are made for the shown matches only.
        found.sort { a, b in
            if a.match.score != b.match.score { return a.match.score > b.match.score }
            let (x, y) = (paths[a.index], paths[b.index])
            if x.count != y.count { return x.count < y.count }
            return x.lexicographicallyPrecedes(y)
        }
        return found.prefix(max(0, limit)).map {
            FileMatch(pathBytes: paths[$0.index], score: $0.match.score, positions: $0.match.positions)
        }
    }
}
