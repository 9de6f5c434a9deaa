/// Ranks paths against a query the way fzf does: the query's characters must appear in the path
/// in order (ASCII case ignored), and a match scores higher when its characters start path
/// segments, the file name or words, and when they run together.
///
/// Pure and in-process; works on bytes, so non-UTF-8 file names match too.
///
/// ```swift
/// let matcher = FuzzyMatcher(query: "ffind")
/// if let match = matcher.match(Array("Sources/Find/FileFinder.swift".utf8)) { print(match.score, match.positions) }
/// ```
public struct FuzzyMatcher: Sendable {
    /// The query's bytes, ASCII-lowercased, spaces removed.
    let needle: [UInt8]

    /// A matcher for `query`; spaces in it are ignored.
    public init(query: String) {
        needle = query.utf8.filter { $0 != UInt8(ascii: " ") }.map(Self.lower)
    }

    /// A match of the query in one candidate.
    public struct Match: Sendable, Equatable {
        /// Higher is better.
        public let score: Int
        /// The byte offsets in the candidate of the query's characters, ascending.
        public let positions: [Int]
    }

    // fzf's scheme: every matched character scores `matched` plus the bonus of where it lands
    // (doubled for the first); a run of consecutive characters keeps the bonus of its start.
    static let matched = 16
    static let segmentStart = 9
    static let fileNameStart = 13
    static let wordStart = 8
    static let camelCase = 7
    static let consecutive = 4
    static let gapStart = 3
    static let gapExtension = 1

    /// The best-scoring match of the query in `candidate`, or nil when it is not a subsequence.
    /// An empty query matches everything with score 0.
    public func match(_ candidate: [UInt8]) -> Match? {
        guard !needle.isEmpty else { return Match(score: 0, positions: []) }
        // Quick rejection and the first possible start: a forward scan.
        var q = 0
        var start = -1
        for (index, byte) in candidate.enumerated() where Self.lower(byte) == needle[q] {
            if q == 0 { start = index }
            q += 1
            if q == needle.count { break }
        }
        guard q == needle.count else { return nil }
        // No match ends after the last occurrence of the query's last character.
        let last = needle[needle.count - 1]
        let stop = (candidate.lastIndex { Self.lower($0) == last } ?? candidate.count - 1) + 1
        let nameStart = (candidate.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
        return best(in: candidate, window: start..<stop, nameStart: nameStart)
    }

    /// Dynamic programming over (query character, position in `window`): the best score of
    /// matching the first i query characters with the i-th at position j.
    /// The tables live on the stack: ranking 100,000 paths would otherwise allocate for each.
    private func best(in candidate: [UInt8], window: Range<Int>, nameStart: Int) -> Match? {
        let cells = needle.count * window.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * cells + window.count) { ints in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: cells) { flags in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: window.count) { bytes in
                    best(in: candidate, window: window, nameStart: nameStart, ints: ints, flags: flags, bytes: bytes)
                }
            }
        }
    }

    private func best(
        in candidate: [UInt8], window: Range<Int>, nameStart: Int,
        ints: UnsafeMutableBufferPointer<Int>, flags chained: UnsafeMutableBufferPointer<Bool>,
        bytes lowered: UnsafeMutableBufferPointer<UInt8>
    ) -> Match? {
        let n = window.count
        let m = needle.count
        let none = Int.min / 2
        let scores = UnsafeMutableBufferPointer(rebasing: ints[0..<(m * n)])
        let runBonus = UnsafeMutableBufferPointer(rebasing: ints[(m * n)..<(2 * m * n)])
        let bonuses = UnsafeMutableBufferPointer(rebasing: ints[(2 * m * n)..<(2 * m * n + n)])
        _ = scores.initialize(from: repeatElement(none, count: m * n))
        _ = runBonus.initialize(from: repeatElement(0, count: m * n))
        _ = chained.initialize(from: repeatElement(false, count: m * n))
        for k in 0..<n {
            bonuses[k] = bonus(candidate, at: window.lowerBound + k, nameStart: nameStart)
            lowered[k] = Self.lower(candidate[window.lowerBound + k])
        }
        for i in 0..<m {
            var bestBefore = none  // best score of row i-1 at a position k < j, less the gap's cost
            for j in i..<n {
                if i > 0, j > 0 {
                    let previous = scores[(i - 1) * n + j - 1]
                    if previous > none {
                        bestBefore = max(bestBefore, previous - Self.gapStart)
                    }
                }
                guard lowered[j] == needle[i] else {
                    if bestBefore > none { bestBefore -= Self.gapExtension }
                    continue
                }
                var score = none
                var isChained = false
                var bonus = bonuses[j]
                if i == 0 {
                    score = Self.matched + 2 * bonuses[j]
                } else {
                    let previous = j > 0 ? scores[(i - 1) * n + j - 1] : none
                    if previous > none {
                        let inherited =
                            bonuses[j] >= Self.wordStart ? bonuses[j] : max(runBonus[(i - 1) * n + j - 1], Self.consecutive, bonuses[j])
                        (score, isChained, bonus) = (previous + Self.matched + inherited, true, inherited)
                    }
                    if bestBefore > none, bestBefore + Self.matched + bonuses[j] > score {
                        (score, isChained, bonus) = (bestBefore + Self.matched + bonuses[j], false, bonuses[j])
                    }
                }
                scores[i * n + j] = score
                chained[i * n + j] = isChained
                runBonus[i * n + j] = bonus
                if bestBefore > none { bestBefore -= Self.gapExtension }
            }
        }
        // The best end, then walk back choosing, for each row, the best position before the next.
        var endScore = none
        var endIndex = -1
        for j in 0..<n where scores[(m - 1) * n + j] > endScore { (endScore, endIndex) = (scores[(m - 1) * n + j], j) }
        guard endIndex >= 0 else { return nil }
        var positions = [Int](repeating: 0, count: m)
        positions[m - 1] = endIndex
        var j = endIndex
        for i in stride(from: m - 1, to: 0, by: -1) {
            if chained[i * n + j] {
                j -= 1
            } else {
                var bestIndex = j - 1
                var bestValue = none
                for k in stride(from: j - 1, through: i - 1, by: -1) {
                    let value = scores[(i - 1) * n + k]
                    guard value > none else { continue }
                    let adjusted = value - Self.gapStart - (j - k - 1) * Self.gapExtension
                    if adjusted > bestValue { (bestValue, bestIndex) = (adjusted, k) }
                }
                j = bestIndex
            }
            positions[i - 1] = j
        }
        return Match(score: endScore, positions: positions.map { $0 + window.lowerBound })
    }

    /// How good a place position `index` is for a match to land.
    private func bonus(_ candidate: [UInt8], at index: Int, nameStart: Int) -> Int {
        if index == nameStart { return Self.fileNameStart }
        guard index > 0 else { return Self.segmentStart }
        let previous = candidate[index - 1]
        let byte = candidate[index]
        if previous == UInt8(ascii: "/") { return Self.segmentStart }
        if Self.isSeparator(previous) { return Self.wordStart }
        if Self.isLower(previous) && Self.isUpper(byte) { return Self.camelCase }
        if !Self.isDigit(previous) && Self.isDigit(byte) { return Self.camelCase }
        return 0
    }

    static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte + 32 : byte }
    static func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
    static func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: " ")
    }
}
