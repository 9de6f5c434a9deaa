import Foundation
import SessionHistory

/// The records ``ProjectScanScript`` prints, read back, and their union into ``Project``s.
struct ProjectScan: Equatable {
    /// An entry of the workspace root.
    struct Entry: Equatable {
        var name: String
        var realPath: String?
        var isSymbolicLink: Bool
        var isGitRepository: Bool
        var branch: String?
        var isDirty: Bool?
    }

    /// A Claude Code project folder.
    struct HistoryFolder: Equatable {
        var path: String
        var name: String
        var sessionCount: Int
        var newestModification: Date?
        var cwd: String?
        var cwdExists: Bool
    }

    /// The workspace root's real path; nil when it does not exist.
    var rootRealPath: String?
    var entries: [Entry] = []
    var historyFolders: [HistoryFolder] = []

    /// Reads the script's NUL-terminated fields.
    init(output: [UInt8]) throws(ProjectError) {
        var fields = output.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }[...]
        if fields.last == "" { fields = fields.dropLast() }
        func take(_ count: Int) throws(ProjectError) -> [String] {
            guard fields.count >= count else {
                throw .remoteCommandFailed(operation: "listing projects", status: "exit status 0", detail: "the listing was cut short")
            }
            defer { fields = fields.dropFirst(count) }
            return Array(fields.prefix(count))
        }
        while let tag = fields.popFirst() {
            switch tag {
            case "R": rootRealPath = try take(1)[0].nonEmpty
            case "W": entries.append(Self.entry(try take(6)))
            case "C": historyFolders.append(Self.folder(try take(6)))
            default:
                throw .remoteCommandFailed(
                    operation: "listing projects", status: "exit status 0", detail: "unexpected record \(tag.prefix(40))")
            }
        }
    }

    private static func entry(_ f: [String]) -> Entry {
        Entry(
            name: f[0], realPath: f[1].nonEmpty, isSymbolicLink: f[2] == "1", isGitRepository: f[3] == "1",
            branch: f[4].nonEmpty, isDirty: f[5].isEmpty ? nil : f[5] == "1")
    }

    private static func folder(_ f: [String]) -> HistoryFolder {
        let separator = f[0].hasSuffix("/") ? "" : "/"
        return HistoryFolder(
            path: f[0] + separator + f[1], name: f[1], sessionCount: Int(f[2]) ?? 0,
            newestModification: Double(f[3]).map { Date(timeIntervalSince1970: $0) },
            cwd: decodeCWD(f[4]), cwdExists: f[5] == "1")
    }

    /// `"cwd":"/home/me/app"` → `/home/me/app`, with JSON escapes decoded.
    static func decodeCWD(_ member: String) -> String? {
        guard !member.isEmpty, let value = try? JSONValue(parsing: "{" + member + "}") else { return nil }
        return value["cwd"]?.stringValue?.nonEmpty
    }

    /// Workspace entries with their history, then history-only projects, each sorted by name.
    func projects() -> [Project] {
        var unclaimed = historyFolders
        var result: [Project] = entries.map { entry in
            let path = (rootRealPath ?? "") + "/" + entry.name
            let real = entry.realPath ?? path
            let mine = unclaimed.filter { Self.belongs($0, toPath: real) || Self.belongs($0, toPath: path) }
            unclaimed.removeAll { folder in mine.contains(folder) }
            var project = Project(
                name: entry.name, path: path, isInWorkspace: true, directoryExists: entry.realPath != nil,
                isSymbolicLink: entry.isSymbolicLink, isGitRepository: entry.isGitRepository,
                gitBranch: entry.branch, isDirty: entry.isDirty)
            Self.addHistory(mine, to: &project)
            return project
        }
        result.sort { $0.name < $1.name }
        var byPath: [String: Project] = [:]
        var order: [String] = []
        for folder in unclaimed {
            let key = folder.cwd ?? folder.path
            if byPath[key] == nil {
                order.append(key)
                let name = folder.cwd.map { ($0 as NSString).lastPathComponent } ?? folder.name
                byPath[key] = Project(name: name, path: folder.cwd ?? "", isInWorkspace: false, directoryExists: folder.cwdExists)
            }
            Self.addHistory([folder], to: &byPath[key]!)
        }
        return result + order.map { byPath[$0]! }.sorted { ($0.name, $0.path) < ($1.name, $1.path) }
    }

    /// A folder belongs to a path when its records say so, or, with no `cwd` to go by, when its name is the path's encoding.
    private static func belongs(_ folder: HistoryFolder, toPath path: String) -> Bool {
        if let cwd = folder.cwd { return cwd == path }
        return ProjectFolderName.matches(folderName: folder.name, path: path)
    }

    private static func addHistory(_ folders: [HistoryFolder], to project: inout Project) {
        for folder in folders {
            project.sessionCount += folder.sessionCount
            project.historyFolders.append(folder.path)
            if let date = folder.newestModification, date > (project.lastActivity ?? .distantPast) { project.lastActivity = date }
        }
    }
}

fileprivate extension String {
    /// nil for the empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
