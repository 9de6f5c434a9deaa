import Foundation
import PackagePlugin

/// Gives the target it is applied to `gitCommit`, the commit of the checkout it is built from
/// (nil outside a git checkout, as in a source tarball), through the `git-commit-reader` tool.
///
/// HEAD and the folders holding it and the branches are the command's inputs, so a build after a
/// commit, a checkout or a pull reads it again; no `git` process is run. A `.git` that is a file
/// (`gitdir: ...`: a worktree, a submodule) is followed, and a worktree's refs are read from the
/// main repository (its `commondir`).
@main
struct GitCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GitCommit.swift")
        var arguments = [output.path]
        var inputs: [URL] = []
        if let git = gitDirectories(of: context.package.directoryURL) {
            arguments += [git.directory.path, git.common.path]
            // Only paths every checkout keeps: a missing input fails the build, and SwiftPM does not
            // work this list out again on every build. Not the branch's own file, which `git gc`
            // packs away. Git writes HEAD, refs, packed-refs and the index anew and renames them into
            // place, so a commit, checkout, reset, pull or pack changes the entries of these folders.
            inputs = [git.directory.appendingPathComponent("HEAD"), git.directory, git.common.appendingPathComponent("refs/heads")]
            if git.common != git.directory { inputs.append(git.common) }
            inputs = inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
        }
        return [
            .buildCommand(
                displayName: "Reading the git commit for \(target.name)", executable: try context.tool(named: "git-commit-reader").url,
                arguments: arguments, inputFiles: inputs, outputFiles: [output])
        ]
    }

    /// The folder holding HEAD and the one holding the refs of the checkout at `package`, or nil
    /// when it is not a git checkout.
    private func gitDirectories(of package: URL) -> (directory: URL, common: URL)? {
        let dotGit = package.appendingPathComponent(".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
        var directory = dotGit
        if !isFolder.boolValue {
            // "gitdir: PATH", PATH absolute or relative to the folder of the .git file.
            guard let line = text(dotGit), line.hasPrefix("gitdir: ") else { return nil }
            directory = resolve(String(line.dropFirst(8)), in: package)
        }
        // A worktree's folder names the main repository's .git in `commondir` (often relative to it).
        let common = text(directory.appendingPathComponent("commondir")).map { resolve($0, in: directory) }
        return (directory, common ?? directory)
    }

    /// `path`, absolute or relative to `folder`, without `..` components.
    private func resolve(_ path: String, in folder: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)).standardizedFileURL
    }

    /// The text of `file` without surrounding white space, or nil when it cannot be read.
    private func text(_ file: URL) -> String? {
        (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
