// The tool of the GitCommitPlugin: writes the Swift file that tells the rws executable the commit
// it is built from, read from the repository's own files (HEAD, the ref it names, packed-refs)
// without running git, which a build machine need not have.
//
//   git-commit-reader OUTPUT [GIT_DIR COMMON_DIR]
//
// GIT_DIR holds HEAD (for a worktree or a submodule, the folder its `.git` file names); COMMON_DIR
// holds the refs (the main repository's `.git` for a worktree, else GIT_DIR). Without them, or
// when HEAD cannot be resolved, the file says there is no commit.
import Foundation

/// The text of `path` without surrounding white space, or nil when it cannot be read.
func text(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Whether `value` is an object name: 40 hex digits (SHA-1) or 64 (SHA-256).
func isObjectName(_ value: String) -> Bool {
    (value.count == 40 || value.count == 64) && value.allSatisfy(\.isHexDigit)
}

/// The commit `ref` (`refs/heads/main`) names: its loose file, else its line in packed-refs.
/// A symbolic ref is followed a few levels deep.
func resolve(ref: String, gitDirectory: String, commonDirectory: String, depth: Int = 0) -> String? {
    guard depth < 5 else { return nil }
    // Refs of one worktree (refs/bisect, refs/worktree) are in its own folder, the rest in the common one.
    for folder in [gitDirectory, commonDirectory] {
        guard let value = text(folder + "/" + ref) else { continue }
        if isObjectName(value) { return value }
        if value.hasPrefix("ref: ") {
            return resolve(ref: String(value.dropFirst(5)), gitDirectory: gitDirectory, commonDirectory: commonDirectory, depth: depth + 1)
        }
    }
    // packed-refs: "<name> <ref>" lines; "#" starts the header, "^" a peeled tag's line.
    for line in (text(commonDirectory + "/packed-refs") ?? "").split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
        let fields = line.split(separator: " ", maxSplits: 1)
        if fields.count == 2, fields[1] == ref, isObjectName(String(fields[0])) { return String(fields[0]) }
    }
    return nil
}

/// The commit HEAD names: a detached HEAD holds it, else HEAD names the ref that does.
func headCommit(gitDirectory: String, commonDirectory: String) -> String? {
    guard let head = text(gitDirectory + "/HEAD") else { return nil }
    if isObjectName(head) { return head }
    guard head.hasPrefix("ref: ") else { return nil }
    return resolve(ref: String(head.dropFirst(5)), gitDirectory: gitDirectory, commonDirectory: commonDirectory)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: git-commit-reader OUTPUT [GIT_DIR COMMON_DIR]\n".utf8))
    exit(64)
}
let commit = arguments.count == 3 ? headCommit(gitDirectory: arguments[1], commonDirectory: arguments[2]) : nil
let source = """
    // Written by the GitCommitPlugin from the checkout's .git at build time: do not edit.

    /// The commit rws was built from (the full object name), or nil when it was not built from a git checkout.
    let gitCommit: String? = \(commit.map { "\"\($0)\"" } ?? "nil")

    """
// Unchanged, it is left alone, so the rws target is not compiled again for nothing.
if (try? String(contentsOfFile: arguments[0], encoding: .utf8)) != source {
    do {
        try source.write(toFile: arguments[0], atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("git-commit-reader: cannot write \(arguments[0]): \(error)\n".utf8))
        exit(1)
    }
}
