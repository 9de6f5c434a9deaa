import Foundation
import SessionHistory

extension SessionSearch {
    /// Every session in the `projects` folders of `folders` (paths on this machine), for
    /// ``RemoteSessions/searchLocally(_:folders:workspaceRoot:)``.
    static func listLocalSessions(in folders: [String], projects wanted: Set<String>) throws -> [Listed] {
        var result: [Listed] = []
        for folder in folders {
            let root = URL(fileURLWithPath: NSString(string: folder).expandingTildeInPath)
            let projects = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for project in projects.sorted() where wanted.contains(project) {
                let url = root.appendingPathComponent(project)
                guard (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true else { continue }
                // Paths as the script names them: the folder as given, then the path in it.
                let base = (folder.hasSuffix("/") ? String(folder.dropLast()) : folder) + "/" + project + "/"
                func path(_ file: URL) -> String { base + String(file.path.dropFirst(url.path.count + 1)) }
                for listing in try LocalProject.listSessions(in: url, includeUnlisted: true) {
                    let file = RemoteFile(
                        path: path(listing.url), size: listing.summary.fileSize, modified: listing.summary.modificationTime ?? 0)
                    result.append(
                        Listed(
                            session: SessionSearchSession(file: file, projectFolder: project, summary: listing.summary, hits: []),
                            subagentPaths: listing.subagentFiles.map(path)))
                }
            }
        }
        return result
    }
}
