/// A session's message count as a listing gives it: the lines of the whole file that hold
/// `"type":"user"` or `"type":"assistant"` — user prompts and tool results, and one line per
/// content block of a response, as Claude Code's own picker counted transcript messages.
///
/// JSON whitespace (space, tab, carriage return) may stand around the colon, as other writers
/// put it (`"type": "user"`). The remote listing counts on the box with `LC_ALL=C grep -c -E`
/// and `KeyValueLines.extendedRegex` (internal), which is this same rule, so both listings
/// agree. Inside JSON strings quotes are escaped, so the patterns only match JSON structure;
/// nested messages (`agent_progress` records) add a few.
package enum MessageLines {
    static let pattern = KeyValueLines(key: "type", values: ["user", "assistant"])
    static let userType = KeyValueLines(key: "type", values: ["user"])

    /// The lines of `bytes` (split at `\n`, a last line without one included) holding either pattern.
    package static func count(in bytes: [UInt8]) -> Int {
        pattern.count(in: bytes)
    }

    /// The `grep -E` pattern the remote listing counts with.
    package static var extendedRegex: String { pattern.extendedRegex }
}

/// Whether a session file holds a title record (`custom-title` from a rename, `ai-title`) in its
/// first or last bytes, by the same line rule as ``MessageLines``.
///
/// Claude Code's picker looks for titles in the last and first 64 KiB; a listing reads 8 KiB
/// first, so a file whose wide windows hold a title its first windows miss is read wide
/// (``ListingWindowPolicy/widening(_:headCount:tailCount:holdsTitleRecord:)``). The remote
/// listing asks the box (`LC_ALL=C grep -o -E` with ``extendedRegex`` over `head -c` and
/// `tail -c`); the local listing applies ``present(inFirstOrLast:of:)``.
package enum TitleLines {
    static let pattern = KeyValueLines(key: "type", values: ["custom-title", "ai-title"])

    /// Whether any line of `bytes` holds either pattern.
    package static func present(in bytes: [UInt8]) -> Bool {
        pattern.count(in: bytes, stopAtFirst: true) > 0
    }

    /// Whether a line of the first or of the last `window` bytes of `bytes` (a line cut by the
    /// window's edge counted as what the window holds of it) holds either pattern.
    package static func present(inFirstOrLast window: Int, of bytes: [UInt8]) -> Bool {
        guard bytes.count > window else { return present(in: bytes) }
        return present(in: Array(bytes.prefix(window))) || present(in: Array(bytes.suffix(window)))
    }

    /// The `grep -E` pattern the remote listing looks for titles with.
    package static var extendedRegex: String { pattern.extendedRegex }
}
