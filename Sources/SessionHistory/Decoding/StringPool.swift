import Foundation

/// The last string read for each kind of identifier, handed out again when the next record
/// repeats it.
///
/// Every record of a session carries the same `sessionId`, `cwd` and `slug`; a record's
/// `parentUuid` is usually the `uuid` just read, and a tool's progress records repeat its id.
/// Strings over 15 UTF-8 bytes live on the heap, one allocation each: drawn from here, a run
/// of records shares one, found by comparing bytes (no hashing, no allocation on a repeat).
final class StringPool {
    /// The kinds of identifier, each remembering its last value.
    enum Slot: Int, CaseIterable {
        case session, path, version, branch, slug, entrypoint, team, agent
        /// `uuid` and `parentUuid`, which repeats the previous record's `uuid`.
        case record
        /// Tool call ids: `tool_use` ids, `tool_use_id`, progress `toolUseID`.
        case tool
        case parentTool, model, message, request
    }

    private var recent = [String?](repeating: nil, count: Slot.allCases.count)

    /// The string `token` holds: the slot's last one when the bytes are the same.
    func string(_ token: StringToken, of scanner: JSONScanner, slot: Slot) throws(JSONError) -> String {
        let count = token.end - token.start
        // Up to 15 bytes a String is stored inline: nothing to share.
        if count > 15, !token.hasEscapes, var last = recent[slot.rawValue], last.utf8.count == count {
            let same = last.withUTF8 { memcmp($0.baseAddress!, scanner.base + token.start, count) == 0 }
            if same { return last }
        }
        let value = try scanner.string(token)
        if count > 15 { recent[slot.rawValue] = value }
        return value
    }
}
