/// One match as the box sent it: a few hundred bytes of the stored JSON line around it. Decides
/// whether the match is in conversation text, and decodes it for display.
///
/// A match counts when it starts on a character of the stored string (not inside an escape such
/// as `\n` or `\u00e9`), lies in a string value rather than a key, and that value is not one of the
/// record's bookkeeping fields (ids, times, versions, paths of the session itself, signatures,
/// base64 data): ``ignoredKeys``. A string longer than the window is text, whatever its key.
struct SearchWindow: Sendable, Equatable {
    /// Bytes of the stored line around the match.
    var bytes: [UInt8]
    /// Where the match starts in ``bytes``.
    var matchStart: Int
    /// The match's length in bytes.
    var matchLength: Int

    /// Keys whose string values are a record's bookkeeping, not something said.
    static let ignoredKeys: Set<String> = [
        "parentUuid", "logicalParentUuid", "uuid", "leafUuid", "sessionId", "cwd", "version", "gitBranch", "timestamp",
        "requestId", "id", "messageId", "promptId", "model", "type", "subtype", "userType", "role", "signature",
        "tool_use_id", "toolUseID", "sourceToolUseID", "stop_reason", "stop_sequence", "service_tier", "media_type",
        "data", "slug", "agentId", "level", "permissionMode", "entrypoint",
    ]

    /// The key of the string value holding the match (nil for a long string or an array
    /// element), or nil when the match is not in conversation text.
    func textKey() -> (isText: Bool, key: String?) {
        guard startsOnCharacter(), !endsInKey() else { return (false, nil) }
        guard let opening = openingQuote() else { return (true, nil) }
        var index = opening - 1
        while index >= 0, Self.isSpace(bytes[index]) { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: ":") else { return (true, nil) }
        index -= 1
        while index >= 0, Self.isSpace(bytes[index]) { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: "\"") else { return (true, nil) }
        var start = index - 1
        while start >= 0, bytes[start] != UInt8(ascii: "\"") { start -= 1 }
        guard start >= 0 else { return (true, nil) }
        let key = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        return (!Self.ignoredKeys.contains(key), key)
    }

    /// The match with the decoded text of its string on each side, cut at the window.
    func snippet() -> (before: String, match: String, after: String) {
        let start = openingQuote().map { $0 + 1 } ?? Self.characterStart(bytes, from: 0)
        let end = min(closingQuote() ?? bytes.count, bytes.count)
        let matchEnd = min(matchStart + matchLength, bytes.count)
        return (
            Self.decode(bytes[start..<max(start, matchStart)]), Self.decode(bytes[matchStart..<matchEnd]),
            Self.decode(bytes[min(matchEnd, end)..<end])
        )
    }

    /// False when an odd run of backslashes, or `\u` and fewer than four hex digits, come just before.
    private func startsOnCharacter() -> Bool {
        if backslashesBefore(matchStart) % 2 == 1 { return false }
        for digits in 0...3 {
            let u = matchStart - digits - 1
            guard u >= 1, bytes[u] == UInt8(ascii: "u"), bytes[u - 1] == UInt8(ascii: "\\") else { continue }
            guard bytes[(u + 1)..<matchStart].allSatisfy(Self.isHex) else { continue }
            if backslashesBefore(u - 1) % 2 == 0 { return false }
        }
        return true
    }

    /// Whether the string holding the match is followed by `:`: a key.
    private func endsInKey() -> Bool {
        guard let closing = closingQuote() else { return false }
        var index = closing + 1
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: ":")
    }

    /// The unescaped quote that closes the string holding the match, when in the window.
    private func closingQuote() -> Int? {
        var index = matchStart + matchLength
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    /// The unescaped quote that opens the string holding the match, when in the window.
    private func openingQuote() -> Int? {
        var index = matchStart - 1
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "\""), backslashesBefore(index) % 2 == 0 { return index }
            index -= 1
        }
        return nil
    }

    private func backslashesBefore(_ position: Int) -> Int {
        var count = 0
        var index = position - 1
        while index >= 0, bytes[index] == UInt8(ascii: "\\") {
            count += 1
            index -= 1
        }
        return count
    }

    /// The first byte at or after `from` that starts a UTF-8 character.
    private static func characterStart(_ bytes: [UInt8], from: Int) -> Int {
        var index = from
        while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static let simpleEscapes: [UInt8: Unicode.Scalar] = [
        UInt8(ascii: "n"): "\n", UInt8(ascii: "t"): "\t", UInt8(ascii: "r"): "\r", UInt8(ascii: "b"): "\u{8}", UInt8(ascii: "f"): "\u{C}",
    ]

    /// JSON string bytes to text, forgiving an escape or character cut at either end.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var pendingHigh: UInt32?
        func flushRaw() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars.filter { $0 != "\u{FFFD}" })
            raw.removeAll(keepingCapacity: true)
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            flushRaw()
            guard index + 1 < bytes.endIndex else { break }
            let kind = bytes[index + 1]
            if kind == UInt8(ascii: "u") {
                guard index + 6 <= bytes.endIndex,
                    let unit = UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
                else { break }
                index += 6
                if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                    continue
                }
                var value = unit
                if (0xDC00...0xDFFF).contains(unit) {
                    guard let high = pendingHigh else { continue }
                    value = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                }
                pendingHigh = nil
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
                continue
            }
            scalars.append(simpleEscapes[kind] ?? Unicode.Scalar(kind))
            index += 2
        }
        flushRaw()
        return String(scalars)
    }
}
