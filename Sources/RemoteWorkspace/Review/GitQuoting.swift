/// git's C-style quoting of unusual paths in patch headers (`"a/t\303\251st\n"`), undone.
enum GitQuoting {
    /// The bytes of `field`: unquoted when it starts with `"`, else as they are.
    static func unquote(_ field: [UInt8]) -> [UInt8] {
        guard field.first == UInt8(ascii: "\""), field.count >= 2 else { return field }
        return unescape(field[1...]).bytes
    }

    /// A `---`/`+++` side: `/dev/null` is nil; the `a/`/`b/` prefix and the tab git adds after a
    /// name with a space are removed.
    static func unquoteSide(_ field: [UInt8]) -> [UInt8]? {
        var field = field[...]
        if field.last == UInt8(ascii: "\t") { field = field.dropLast() }
        if field.elementsEqual("/dev/null".utf8) { return nil }
        let path = unquote(Array(field))
        return Array(path.dropFirst(2))
    }

    /// The two paths of `diff --git a/OLD b/NEW`, prefixes removed. Quoted names are read as
    /// such; two unquoted names are only ever the same path (git quotes a rename's names when
    /// they could be ambiguous, and renames are named again on `rename from/to` lines).
    static func pathsOfGitLine(_ rest: [UInt8]) -> (old: [UInt8], new: [UInt8])? {
        if rest.first == UInt8(ascii: "\"") {
            let (old, used) = unescape(rest[1...])
            let remainder = Array(rest.dropFirst(used + 2))
            return (Array(old.dropFirst(2)), Array(unquote(remainder).dropFirst(2)))
        }
        if rest.last == UInt8(ascii: "\""), let quote = rest.firstIndex(of: UInt8(ascii: "\"")) {
            let old = Array(rest[..<quote].dropLast())
            return (Array(old.dropFirst(2)), Array(unquote(Array(rest[quote...])).dropFirst(2)))
        }
        // "a/P b/P": both halves are the same path.
        guard rest.count >= 5, (rest.count - 1) % 2 == 0 else { return nil }
        let half = (rest.count - 1) / 2
        let old = Array(rest[..<half].dropFirst(2))
        let new = Array(rest[(half + 1)...].dropFirst(2))
        return (old, new)
    }

    /// Unescapes up to the closing quote; returns the bytes and how many input bytes were used.
    private static func unescape(_ quoted: ArraySlice<UInt8>) -> (bytes: [UInt8], used: Int) {
        var bytes: [UInt8] = []
        var index = quoted.startIndex
        while index < quoted.endIndex {
            let byte = quoted[index]
            if byte == UInt8(ascii: "\"") { return (bytes, index - quoted.startIndex + 1) }
            guard byte == UInt8(ascii: "\\"), index + 1 < quoted.endIndex else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = quoted[index + 1]
            switch next {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                let digits = quoted[(index + 1)..<min(index + 4, quoted.endIndex)]
                bytes.append(UInt8(truncatingIfNeeded: digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }))
                index += 1 + digits.count
                continue
            case UInt8(ascii: "a"): bytes.append(7)
            case UInt8(ascii: "b"): bytes.append(8)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "v"): bytes.append(11)
            case UInt8(ascii: "f"): bytes.append(12)
            case UInt8(ascii: "r"): bytes.append(13)
            default: bytes.append(next)
            }
            index += 2
        }
        return (bytes, quoted.count)
    }
}
