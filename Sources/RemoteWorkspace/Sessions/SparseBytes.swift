/// Pieces of one file known at various offsets (a cached head and tail, appended ranges), and
/// the contiguous runs that can be cut from them.
struct SparseBytes: Sendable {
    private var segments: [(offset: Int, bytes: [UInt8])] = []

    init() {}

    mutating func add(_ bytes: [UInt8], at offset: Int) {
        guard !bytes.isEmpty else { return }
        segments.append((offset, bytes))
        segments.sort { $0.offset < $1.offset }
    }

    /// Bytes `start..<end`, or nil when some of them are not known.
    func bytes(_ start: Int, _ end: Int) -> [UInt8]? {
        guard start <= end else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(end - start)
        var position = start
        while position < end {
            guard let segment = segments.last(where: { $0.offset <= position && position < $0.offset + $0.bytes.count }) else { return nil }
            let stop = min(end, segment.offset + segment.bytes.count)
            result += segment.bytes[(position - segment.offset)..<(stop - segment.offset)]
            position = stop
        }
        return result
    }

    /// The longest known run ending at `end`, at most `limit` bytes long; nil when it is shorter
    /// than `minimum` (or than the whole file, when that is shorter still).
    func suffix(endingAt end: Int, limit: Int, minimum: Int) -> [UInt8]? {
        let floor = max(0, end - limit)
        var position = end
        while position > floor,
            let segment = segments.first(where: { $0.offset < position && position <= $0.offset + $0.bytes.count })
        {
            position = max(floor, segment.offset)
        }
        guard end - position >= min(minimum, end) else { return nil }
        return bytes(position, end)
    }
}
