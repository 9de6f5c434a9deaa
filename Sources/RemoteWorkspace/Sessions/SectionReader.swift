import Foundation

/// One framed piece of a remote script's output: its marker words and the raw bytes after it.
struct OutputSection: Sendable {
    /// The words of the marker line after the boundary (`stat`, `range 0 512 ./p/x.jsonl`, ...).
    var header: String
    /// The bytes up to the next marker.
    var content: [UInt8]

    /// The first `count` words of the header and the rest (which may hold spaces, e.g. a path).
    func fields(_ count: Int) -> [String] {
        header.split(separator: " ", maxSplits: count, omittingEmptySubsequences: false).map(String.init)
    }
}

/// Splits the output of the remote scripts into sections.
///
/// Every script prints `\n<boundary> <words>\n` before each piece, where the boundary is a random
/// token the client chose for this run, so no file content can fake a marker. Raw file bytes
/// need no escaping and no length prefix; a file that changed while it was being read simply
/// gives a section of another length. Feed chunks as they arrive; a section is delivered when
/// the next marker line is complete.
struct SectionReader: Sendable {
    private let marker: [UInt8]
    private var buffer: [UInt8] = []
    private var scanned = 0
    private var open: String?

    init(boundary: String) {
        marker = Array("\n\(boundary) ".utf8)
    }

    /// The header of the section being read (its bytes are not all in yet), if any.
    var openHeader: String? { open }

    /// A fresh random boundary token.
    static func makeBoundary() -> String {
        "rws-" + (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined()
    }

    /// Takes `chunk` and returns the sections it completed.
    mutating func feed(_ chunk: some Collection<UInt8>) -> [OutputSection] {
        buffer.append(contentsOf: chunk)
        var sections: [OutputSection] = []
        var consumed = 0
        while let (markerStart, headerEnd) = nextMarker() {
            let header = String(decoding: buffer[(markerStart + marker.count)..<headerEnd], as: UTF8.self)
            if let open { sections.append(OutputSection(header: open, content: Array(buffer[consumed..<markerStart]))) }
            open = header
            consumed = headerEnd + 1
            scanned = consumed
        }
        if consumed > 0 {
            buffer.removeFirst(consumed)
            scanned -= consumed
        }
        return sections
    }

    /// Ends the input; returns the last open section (the script's output ends after it).
    mutating func finish() -> [OutputSection] {
        defer {
            open = nil
            buffer = []
            scanned = 0
        }
        guard let open else { return [] }
        return [OutputSection(header: open, content: buffer)]
    }

    /// The next complete marker line at or after `scanned`: where it starts and where its newline is.
    private mutating func nextMarker() -> (Int, Int)? {
        let marker = marker
        var index = scanned
        let found = buffer.withUnsafeBufferPointer { bytes -> (Int, Int)? in
            guard let base = bytes.baseAddress else { return nil }
            while index < bytes.count {
                guard let hit = memchr(base + index, 0x0A, bytes.count - index) else {
                    index = bytes.count
                    return nil
                }
                let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                // A marker cut by the end of the chunk is looked at again when more arrives.
                guard start + marker.count <= bytes.count else {
                    index = start
                    return nil
                }
                if memcmp(base + start, marker, marker.count) == 0 {
                    let afterMarker = start + marker.count
                    guard let newline = memchr(base + afterMarker, 0x0A, bytes.count - afterMarker) else {
                        index = start
                        return nil
                    }
                    return (start, base.distance(to: newline.assumingMemoryBound(to: UInt8.self)))
                }
                index = start + 1
            }
            return nil
        }
        if found == nil { scanned = index }
        return found
    }
}
