import RemoteWorkspace

/// How `rws status` and `rws diff` look on a terminal (and, without colour, in a pipe). Every
/// name and line from the box goes through `safeLine`, so none can drive the terminal.
struct ReviewText {
    let colors: Colors

    func status(_ status: GitStatus) -> String {
        var text = colors.bold(status.branch.map { "On \($0.safeLine)" } ?? "HEAD detached at \(status.headCommit?.prefix(12) ?? "?")")
        if let upstream = status.upstream {
            text += " → \(upstream.safeLine)"
            if let ahead = status.ahead, ahead > 0 { text += colors.green(" ↑\(ahead)") }
            if let behind = status.behind, behind > 0 { text += colors.red(" ↓\(behind)") }
        }
        text += "\n"
        if status.headCommit == nil { text += "No commits yet\n" }
        guard !status.isClean else { return text + "Nothing to commit, working tree clean\n" }
        let groups: [(String, [GitStatusEntry], (GitStatusEntry) -> String, (String) -> String)] = [
            ("Conflicts", status.conflicted, { $0.conflict ?? "UU" }, colors.red),
            ("Staged", status.staged.filter { $0.kind != .conflicted }, { letter($0.staged) }, colors.green),
            ("Not staged", status.unstaged.filter { $0.kind != .conflicted }, { letter($0.unstaged) }, colors.red),
            ("Untracked", status.untracked, { _ in "?" }, colors.red),
        ]
        for (title, entries, mark, paint) in groups where !entries.isEmpty {
            text += "\(title):\n"
            for entry in entries {
                text += "  " + paint(mark(entry).padding(toLength: 2, withPad: " ", startingAt: 0)) + " " + describe(entry) + "\n"
            }
        }
        return text
    }

    private func describe(_ entry: GitStatusEntry) -> String {
        var text = entry.path.description.safeLine
        if let original = entry.originalPath { text = "\(original.description.safeLine) → \(text)" }
        if let modes = entry.modes, modes.head != modes.worktree, modes.head != "000000", modes.worktree != "000000" {
            text += colors.dim(" (mode \(modes.head) → \(modes.worktree))")
        }
        if let changes = entry.submoduleChanges {
            let parts = [
                changes.commitChanged ? "new commits" : nil, changes.hasModifications ? "modified content" : nil,
                changes.hasUntrackedFiles ? "untracked content" : nil,
            ].compactMap { $0 }
            text += colors.dim(" (submodule\(parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")))")
        }
        return text
    }

    private func letter(_ change: GitStatusEntry.Change?) -> String {
        switch change {
        case .modified?: return "M"
        case .typeChanged?: return "T"
        case .added?: return "A"
        case .deleted?: return "D"
        case .renamed?: return "R"
        case .copied?: return "C"
        case .updatedButUnmerged?: return "U"
        case nil: return " "
        }
    }

    /// One line per file: change, counts and a bar, then the totals.
    func stat(_ diff: GitDiff) -> String {
        guard !diff.files.isEmpty else { return "No changes\n" }
        let width = min(60, diff.files.map { name($0).count }.max() ?? 0)
        var text = ""
        for file in diff.files {
            let counts: String
            if file.isTooLarge {
                counts = colors.yellow("too large to diff")
            } else if file.isBinary {
                counts = "binary"
            } else {
                let total = file.added + file.deleted
                let scale = max(1, (total + 39) / 40)
                counts =
                    String(total).padding(toLength: 6, withPad: " ", startingAt: 0)
                    + colors.green(String(repeating: "+", count: file.added / scale))
                    + colors.red(String(repeating: "-", count: file.deleted / scale))
            }
            text += " \(name(file).padding(toLength: width, withPad: " ", startingAt: 0)) | \(counts)\n"
        }
        let files = "\(diff.files.count) file\(diff.files.count == 1 ? "" : "s")"
        text += " \(files) changed, \(diff.added) insertions(+), \(diff.deleted) deletions(-)\n"
        return text
    }

    /// The patch, as git shows it, with the line numbers of each side in two columns.
    func patch(_ diff: GitDiff) -> String {
        guard !diff.files.isEmpty else { return "No changes\n" }
        var text = ""
        for file in diff.files {
            text += colors.bold("\(label(file.change)) \(name(file))") + detail(file) + "\n"
            for hunk in file.hunks {
                let section = hunk.section.isEmpty ? "" : " " + hunk.section.safeLine
                text += colors.cyan("@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@") + section + "\n"
                for line in hunk.lines { text += render(line) }
            }
            if file.isCut { text += colors.yellow("  … \(file.omittedLines) more lines not shown (limit per file)\n") }
        }
        if diff.isCut {
            text += colors.yellow("… the diff was cut at its total limit: later files show counts only (--stat lists all)\n")
        }
        return text
    }

    private func render(_ line: GitDiffLine) -> String {
        let old = line.oldLine.map(String.init) ?? ""
        let new = line.newLine.map(String.init) ?? ""
        let numbers = colors.dim(old.leftPadded(to: 5) + " " + new.leftPadded(to: 5) + " ")
        switch line.kind {
        case .added: return numbers + colors.green("+" + line.text.safeLine) + "\n"
        case .deleted: return numbers + colors.red("-" + line.text.safeLine) + "\n"
        case .context: return numbers + " " + line.text.safeLine + "\n"
        case .noNewlineAtEnd: return colors.dim("            \\ " + line.text.safeLine) + "\n"
        }
    }

    private func detail(_ file: GitFileDiff) -> String {
        var parts: [String] = []
        if file.change == .renamed || file.change == .copied, let similarity = file.similarity { parts.append("\(similarity)% similar") }
        if let old = file.oldMode, let new = file.newMode, old != new { parts.append("mode \(old) → \(new)") }
        if file.isSubmodule { parts.append("submodule") }
        if file.isTooLarge { parts.append("too large to diff") } else if file.isBinary { parts.append("binary") }
        if !file.isBinary { parts.append("+\(file.added) -\(file.deleted)") }
        return colors.dim(" (" + parts.joined(separator: ", ") + ")")
    }

    private func name(_ file: GitFileDiff) -> String {
        guard let original = file.originalPath else { return file.path.description.safeLine }
        return "\(original.description.safeLine) → \(file.path.description.safeLine)"
    }

    private func label(_ change: GitFileDiff.Change) -> String {
        switch change {
        case .added: return "added"
        case .deleted: return "deleted"
        case .modified: return "modified"
        case .renamed: return "renamed"
        case .copied: return "copied"
        case .conflicted: return "conflict"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
