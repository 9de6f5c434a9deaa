import Foundation
import SSHClient
import SessionHistory
import Synchronization

/// Runs a remote script's command line with this machine's `/bin/sh`, for the commands that
/// work on local files the way they do on a box (`rws search --local`).
enum LocalScriptRunner {
    /// Runs `commandLine` (from ``RemoteScript/commandLine(_:shell:)``) and waits for it.
    static func run(_ commandLine: String) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", commandLine]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw RemoteSessionError.remoteCommandFailed(step: "running /bin/sh on this machine", status: "not started", stderr: "\(error)")
        }
        // Stderr is drained beside stdout so that neither pipe fills up and stalls the script.
        let stderrBytes = Mutex<[UInt8]?>(nil)
        let drained = DispatchSemaphore(value: 0)
        let drain = Thread {
            let bytes = Array(errors.fileHandleForReading.readDataToEndOfFile())
            stderrBytes.withLock { $0 = bytes }
            drained.signal()
        }
        drain.start()
        let stdout = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        drained.wait()
        let stderr = stderrBytes.withLock { $0 ?? [] }
        let status: ExitStatus =
            process.terminationReason == .uncaughtSignal
            ? .signaled(String(process.terminationStatus)) : .exited(process.terminationStatus)
        return CommandResult(stdout: stdout, stderr: stderr, status: status)
    }

    /// Every session in the `projects` folders of `folders` (paths on this machine), for
    /// ``RemoteSessions/searchLocally(_:folders:workspaceRoot:)``.
    static func listSessions(in folders: [String], projects wanted: Set<String>) throws -> [SessionSearch.Listed] {
        var result: [SessionSearch.Listed] = []
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
                        SessionSearch.Listed(
                            session: SessionSearchSession(file: file, projectFolder: project, summary: listing.summary, hits: []),
                            subagentPaths: listing.subagentFiles.map(path)))
                }
            }
        }
        return result
    }
}
