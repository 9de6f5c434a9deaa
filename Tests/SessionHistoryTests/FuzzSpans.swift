/// Where the values of a JSON line sit, for structural fuzzing by splicing bytes: cheap enough
/// for thousands of cases in a debug build.
struct FuzzSpans {
    /// The kind of a value.
    enum Kind { case object, array, string, number, literal }

    /// Each value's byte range (object keys excluded) and kind.
    private(set) var values: [(range: Range<Int>, kind: Kind)] = []

    /// The values of `line`, which must be valid JSON (real corpus lines, or lines already mutated:
    /// a scan of invalid JSON just finds fewer values).
    init(_ line: [UInt8]) {
        self = line.withUnsafeBufferPointer { FuzzSpans(scanning: $0) }
    }

    private init(scanning line: UnsafeBufferPointer<UInt8>) {
        var containers: [(start: Int, kind: Kind, expectsKey: Bool)] = []
        var index = 0
        while index < line.count {
            let byte = line[index]
            switch byte {
            case 0x7B, 0x5B:
                containers.append((index, byte == 0x7B ? .object : .array, byte == 0x7B))
                index += 1
            case 0x7D, 0x5D:
                if let open = containers.popLast() { values.append((open.start..<index + 1, open.kind)) }
                index += 1
            case 0x2C:
                if let last = containers.indices.last, containers[last].kind == .object { containers[last].expectsKey = true }
                index += 1
            case 0x3A:
                if let last = containers.indices.last { containers[last].expectsKey = false }
                index += 1
            case 0x22:
                let end = Self.stringEnd(line, from: index)
                if containers.last?.expectsKey != true { values.append((index..<end, .string)) }
                index = end
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                var end = index
                while end < line.count, !Self.endsScalar(line[end]) { end += 1 }
                values.append((index..<max(end, index + 1), byte == 0x2D || (0x30...0x39).contains(byte) ? .number : .literal))
                index = max(end, index + 1)
            }
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x09, 0x0D: return true
        default: return false
        }
    }

    private static func stringEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < line.count {
            if line[index] == 0x5C {
                index += 2
                continue
            }
            if line[index] == 0x22 { return index + 1 }
            index += 1
        }
        return line.count
    }

    /// The ranges of the values of `kind` (all values when `nil`).
    func ranges(of kind: Kind?) -> [Range<Int>] {
        values.filter { kind == nil || $0.kind == kind }.map(\.range)
    }
}
