/// The records readable from a file's head and tail bytes.
///
/// The head's last line and the tail's first line may be cut; they are skipped (a head that is
/// the whole file keeps its last line). When the head reaches the end of the file, the tail
/// adds nothing and the head's records serve as both.
struct HeadTailWindow {
    let head: [UInt8]
    let tail: [UInt8]
    let headRecords: [SessionRecord]
    let tailRecords: [SessionRecord]
    /// Whether the head holds the whole file.
    let headIsWholeFile: Bool

    init(fileSize: Int, head: [UInt8], tail: [UInt8]) {
        self.head = head
        self.tail = tail
        let headIsWholeFile = head.count >= fileSize
        self.headIsWholeFile = headIsWholeFile
        headRecords = SessionParser.parse(range: head, fileOffset: 0, startsAtLineStart: true, reachesEndOfFile: headIsWholeFile).records
        if headIsWholeFile {
            tailRecords = headRecords
        } else {
            let tailStart = max(0, fileSize - tail.count)
            tailRecords =
                SessionParser.parse(
                    range: tail, fileOffset: tailStart, startsAtLineStart: tailStart == 0, reachesEndOfFile: true
                ).records
        }
    }

    func sniffHead(_ key: String) -> String? { FieldSniffer.first(key, in: head) }

    func sniffTail(_ key: String) -> String? { FieldSniffer.last(key, in: tail) }

    /// Whether the head's first line is a `user` record, by byte search (it may be torn).
    var headStartsWithUser: Bool {
        MessageLines.userType.count(in: Array(head.prefix { $0 != 0x0A }), stopAtFirst: true) > 0
    }

    private static let sidechain = KeyValueLines(key: "isSidechain", values: ["true"], quoted: false)

    /// The SDK's test on the first line, for a head too short to hold a whole line.
    var headStartsWithSidechain: Bool {
        let firstLine = Array(head.prefix { $0 != 0x0A })
        return Self.sidechain.count(in: firstLine, stopAtFirst: true) > 0
    }
}
