import SSHClient

/// A byte range of a remote file.
struct RemoteByteRange: Hashable, Sendable {
    /// The remote path (`~/` is the remote home).
    var path: String
    /// Where the range starts.
    var offset: Int
    /// How many bytes it spans.
    var length: Int
}

/// Reads byte ranges of remote files, many in one remote command.
///
/// This is the one place that reads file bytes for session browsing. It goes through exec
/// (`head -c` / `tail -c +N | head -c`, which GNU and BusyBox both have) and can move to SFTP
/// reads later without its callers noticing. A range past the end of a file gives fewer bytes.
/// With a ``compressionLevel`` each range crosses the link as `gzip -c` output when the box
/// has gzip (raw otherwise, said in the section header) and is gunzipped here.
struct RemoteByteReader: Sendable {
    let host: any ScriptHost

    /// gzip level for ranges sent compressed (`gzip -c -N` on the box when it has gzip), or
    /// nil to send raw bytes.
    var compressionLevel: Int?

    init(host: any ScriptHost, compressionLevel: Int? = nil) {
        self.host = host
        self.compressionLevel = compressionLevel.map { min(9, max(1, $0)) }
    }

    /// Both scripts': `z` (a gzip level, or `raw`) becomes `raw` on a box without gzip, and
    /// `r FILE OFFSET LENGTH` writes a range; raw ranges go straight out, with no `cat` stage.
    private static let rangeFunction: StaticString = #"""
        r() { if [ "$2" -eq 0 ]; then head -c "$3" -- "$1"; else tail -c +$(($2 + 1)) -- "$1" | head -c "$3"; fi; }
        [ "$z" != raw ] && ! command -v gzip >/dev/null 2>&1 && z=raw

        """#

    /// Its arguments on stdin: a list of any length fits in one command.
    static let script = RemoteScript(
        step: "reading session files", body: RemoteScript.argumentsFromInput,
        #"""
        b=$1 z=$2; shift 2

        """#, rangeFunction,
        #"""
        while [ $# -ge 3 ]; do
          printf '\n%s range %s %s %s\n' "$b" "$2" "$3" "$z"
          if [ "$z" = raw ]; then r "$1" "$2" "$3"; else r "$1" "$2" "$3" | gzip -c "-$z"; fi
          shift 3
        done
        printf '\n%s end\n' "$b"
        """#)

    /// The bytes of each range, in the order given, and how many bytes crossed the connection.
    func read(_ ranges: [RemoteByteRange]) async throws -> (contents: [[UInt8]], transferred: Int) {
        guard !ranges.isEmpty else { return ([], 0) }
        let level: RemoteScript.Argument = .word(compressionLevel.map(String.init) ?? "raw")
        let (sections, transferred) = try await Self.script.sections(
            on: host,
            [level]
                + ranges.flatMap { range in
                    [.path(range.path), .word(String(range.offset)), .word(String(range.length))]
                }, argumentsOnInput: true)
        guard sections.count == ranges.count else {
            throw RemoteSessionError.malformedOutput(
                step: Self.script.step, reason: "\(sections.count) ranges returned for \(ranges.count) asked")
        }
        let contents = try sections.map { section in
            section.header.hasSuffix(" raw") ? section.content : try Gunzip.decompress(section.content, step: Self.script.step)
        }
        return (contents, transferred)
    }

    static let streamScript = RemoteScript(
        step: "reading a session file",
        body: #"""
            z=$1

            """#, rangeFunction,
        #"""
        printf '%s\n' "$z"
        if [ "$z" = raw ]; then r "$2" "$3" "$4"; else r "$2" "$3" "$4" | gzip -c "-$z"; fi
        """#)

    /// The bytes of one range handed to `consume` as they arrive (gunzipped here when they come
    /// compressed), for a file too big to hold: nothing is kept. Returns how many bytes crossed
    /// the connection.
    func stream(_ range: RemoteByteRange, into consume: (ArraySlice<UInt8>) -> Void) async throws -> Int {
        let level: RemoteScript.Argument = .word(compressionLevel.map(String.init) ?? "raw")
        let script = Self.streamScript
        // The first line says how the bytes come: `raw`, or the gzip level.
        var header: [UInt8]? = []
        var gunzip: GunzipStream?
        let moved = try await script.stream(
            on: host, [level, .path(range.path), .word(String(range.offset)), .word(String(range.length))]
        ) { bytes in
            var content = bytes[...]
            if var line = header {
                guard let newline = bytes.firstIndex(of: 0x0A) else {
                    header = line + bytes
                    return
                }
                line += bytes[..<newline]
                header = nil
                if line != Array("raw".utf8) { gunzip = GunzipStream(step: script.step) }
                content = bytes[(newline + 1)...]
            }
            guard !content.isEmpty else { return }
            if let gunzip { try gunzip.feed(Array(content), into: consume) } else { consume(content) }
        }
        guard header == nil else {
            throw RemoteSessionError.malformedOutput(step: script.step, reason: "the output ended before it said how the bytes come")
        }
        try gunzip?.finish()
        return moved
    }

    /// One whole file's first `length` bytes.
    func read(path: String, length: Int) async throws -> (bytes: [UInt8], transferred: Int) {
        let (contents, transferred) = try await read([RemoteByteRange(path: path, offset: 0, length: length)])
        return (contents[0], transferred)
    }

}
