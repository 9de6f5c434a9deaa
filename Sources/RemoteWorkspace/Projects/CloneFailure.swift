import SSHClient

/// Names the cause of a failed `git clone` from what git printed.
enum CloneFailure {
    /// The error for a clone of `url` that ended with `status` after printing `messages`.
    static func error(
        url: String, branch: String?, status: ExitStatus, messages: [String], destination: String, root: String
    ) -> ProjectError {
        switch status.scriptExit(ProjectScriptExit.self) {
        case .destinationExists?: return .destinationExists(path: destination)
        case .rootNotWritable?: return .workspaceNotWritable(root: root)
        case .gitMissing?: return .gitMissing
        default: break
        }
        let text = messages.joined(separator: "\n")
        let detail = messages.last { $0.hasPrefix("fatal:") || $0.hasPrefix("ERROR") } ?? messages.last ?? "no message"
        func has(_ needles: String...) -> Bool { needles.contains { text.localizedCaseInsensitiveContains($0) } }
        // Before the others: "Permission denied" and "No such file" also come from the disk, not only the server.
        if has("No space left on device", "Disk quota exceeded") { return .noSpace(path: destination) }
        if has("Host key verification failed", "host key is not known", "No ED25519 host key is known", "No RSA host key is known") {
            return .hostKeyUnknown(url: url, detail: detail)
        }
        if let branch, has("Remote branch \(branch) not found", "Could not find remote branch") {
            return .branchNotFound(branch: branch, detail: detail)
        }
        if has("Could not resolve host", "Could not resolve hostname", "Name or service not known") {
            return .hostNotFound(url: url, detail: detail)
        }
        if has(
            "Permission denied", "Authentication failed", "could not read Username", "could not read Password",
            "terminal prompts disabled", "Invalid username or password")
        {
            return .authenticationRequired(url: url, detail: detail)
        }
        if has("does not appear to be a git repository", "not found", "does not exist", "No such file or directory") {
            return .repositoryNotFound(url: url, detail: detail)
        }
        return .cloneFailed(url: url, status: status.description, detail: detail)
    }
}
