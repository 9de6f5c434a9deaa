/// Remote paths as the file calls take them: absolute, `~` (the remote `$HOME`), `~/...`, or
/// relative to the remote home.
enum RemotePath {
    /// The path with a relative one made explicit as `~/path`; `/...`, `~` and `~/...` stay.
    /// Any other `~` (`~user`) is a literal name.
    static func normalized(_ path: String) throws(SSHError) -> String {
        guard !path.isEmpty else { throw .invalidArgument("a remote path must not be empty") }
        guard !path.utf8.contains(0) else { throw .invalidArgument("a remote path must not contain a NUL character") }
        if path.hasPrefix("/") || path == "~" || path.hasPrefix("~/") { return path }
        return "~/" + path
    }

    /// Whether the normalized path starts at the remote home.
    static func isHomeRelative(_ normalized: String) -> Bool {
        normalized == "~" || normalized.hasPrefix("~/")
    }

    /// The normalized path with its leading `~` replaced by `home`.
    static func resolved(_ normalized: String, home: String) -> String {
        guard isHomeRelative(normalized) else { return normalized }
        return join(home, String(normalized.dropFirst(2)))
    }

    /// `directory/name`, without doubling a slash; an empty name gives the directory.
    static func join(_ directory: String, _ name: String) -> String {
        if name.isEmpty { return directory }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The parent directory and last component of a path (`"/"` for a top-level name, `"."`
    /// for a bare one); trailing slashes are ignored.
    static func split(_ path: String) -> (parent: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let parent = trimmed[..<slash]
        return (parent.isEmpty ? "/" : String(parent), String(trimmed[trimmed.index(after: slash)...]))
    }
}
