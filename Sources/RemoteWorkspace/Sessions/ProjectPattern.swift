import SessionHistory

/// Which project folders a listing covers, as a glob over folder names.
///
/// A project can be named by its folder (`-home-me-app`), its absolute path on the box
/// (`/home/me/app`, encoded as Claude Code does), a path under the remote home (`~/app`), or a
/// project name in the workspace root (`app` for `~/workspace/app`). Folder names are never
/// decoded; a home-relative path matches any folder ending with its encoding, because the
/// client does not know the remote home's path.
enum ProjectPattern {
    /// Every project.
    static let all = "*"

    static func pattern(for project: String?, workspaceRoot: String) throws -> String {
        guard let project, !project.isEmpty else { return all }
        if project.hasPrefix("-"), !project.contains("/") {
            guard project.utf8.allSatisfy(isFolderByte) else {
                throw RemoteSessionError.invalidName(project, reason: "a Claude Code project folder name has only letters, digits and '-'")
            }
            return project
        }
        if project.hasPrefix("/") {
            let encoded = ProjectFolderName.encode(trimmed(project))
            return encoded.count > ProjectFolderName.maximumLength
                ? String(encoded.prefix(ProjectFolderName.maximumLength)) + "-*" : encoded
        }
        if project == "~" || project.hasPrefix("~/") { return "*" + ProjectFolderName.encode(trimmed(String(project.dropFirst()))) }
        if !project.contains("/") { return try pattern(for: workspaceRoot + "/" + project, workspaceRoot: workspaceRoot) }
        return try pattern(for: "~/" + project, workspaceRoot: workspaceRoot)
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func isFolderByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
