/// Claude Code's name for a project's folder under `~/.claude/projects/`.
///
/// The rule (CLI `path.replace(/[^a-zA-Z0-9]/g, "-")`, SDK `_sanitize_path`): every UTF-16 code
/// unit outside `[A-Za-z0-9]` becomes `-` (so an emoji becomes two dashes); a result longer
/// than 200 characters is cut to 200 and followed by `-` and a 32-bit hash of the path in
/// base 36. The Bun-built CLI may use a different hash for long paths, so look such folders
/// up by the 200-character prefix (``matches(folderName:path:)``).
///
/// The mapping loses information (`/a/b-c`, `/a/b_c` and `/a/b/c` share a folder), so a folder
/// name is never decoded back: the real path is the `cwd` inside the records.
public enum ProjectFolderName {
    /// Longest name kept before truncating and hashing.
    public static let maximumLength = 200

    /// The folder name for a working directory (give the absolute, symlink-resolved path).
    public static func encode(_ path: String) -> String {
        let sanitized = sanitize(path)
        guard sanitized.count > maximumLength else { return sanitized }
        return String(sanitized.prefix(maximumLength)) + "-" + hash(path)
    }

    /// Whether `folderName` is the folder of `path`, allowing a different hash suffix on long names.
    public static func matches(folderName: String, path: String) -> Bool {
        let sanitized = sanitize(path)
        guard sanitized.count > maximumLength else { return folderName == sanitized }
        return folderName.hasPrefix(String(sanitized.prefix(maximumLength)) + "-")
    }

    /// The path with every UTF-16 unit outside `[A-Za-z0-9]` replaced by `-`.
    static func sanitize(_ path: String) -> String {
        let dash = UInt8(ascii: "-")
        let bytes = path.utf16.map { unit -> UInt8 in
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return UInt8(unit)
            default: return dash
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// JavaScript's `simpleHash`: `h = (h << 5) - h + unit` in 32-bit signed arithmetic over the
    /// UTF-16 units, absolute value, base 36.
    static func hash(_ path: String) -> String {
        var value: Int32 = 0
        for unit in path.utf16 {
            value = (value &<< 5) &- value &+ Int32(unit)
        }
        return String(value.magnitude, radix: 36)
    }
}
