import SSHClient

/// The remote side of a clone: `git clone --progress` into a hidden temporary sibling of the
/// destination, renamed into place only when it succeeded.
///
/// git never waits on a prompt: stdin is `/dev/null`, `GIT_TERMINAL_PROMPT=0`, ssh runs with
/// `BatchMode=yes`. `ext::` transports are off, and `file://` too unless local sources are allowed.
/// On SIGTERM (a cancel or a stall) the trap removes the temporary directory; the caller removes
/// it again afterwards in case the shell was killed outright. On success the script prints the
/// destination's real path and branch, NUL-terminated, on stdout, then `existing` when the
/// destination already held this clone.
///
/// Asked again after a lost connection, it reconciles: a destination that is a complete clone of
/// the same address (and branch, when one is asked for) counts as done, not as "destination
/// exists"; temporary directories of earlier attempts at the same name are removed first.
struct CloneScript {
    let source: CloneSource
    let locations: WorkspaceLocations
    let name: String
    let branch: String?
    let depth: Int?
    let options: CloneOptions
    /// The temporary directory's name inside the root.
    let temporaryName: String

    init(source: CloneSource, locations: WorkspaceLocations, name: String, branch: String?, depth: Int?, options: CloneOptions) {
        self.source = source
        self.locations = locations
        self.name = name
        self.branch = branch
        self.depth = depth
        self.options = options
        temporaryName = Self.temporaryPrefix(for: name) + String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    /// The command line.
    func script() throws(ShellQuotingError) -> String {
        var sshWords = ["ssh", "-o", "BatchMode=yes"]
        for option in options.sshOptions { sshWords += ["-o", option] }
        var git = ["git", "-c", "protocol.ext.allow=never", "-c", "protocol.file.allow=\(options.allowLocal ? "always" : "never")",
                   "clone", "--progress"]
        if let branch { git += ["--branch", branch] }
        if let depth { git += ["--depth", String(depth)] }
        let url = source.kind == .local && !source.url.hasPrefix("file://")
            ? try ShellQuoting.quotePath(source.url) : try ShellQuoting.quote(source.url)
        return """
        LC_ALL=C; export LC_ALL
        url=\(url) want=\(try ShellQuoting.quote(branch ?? ""))
        GIT_TERMINAL_PROMPT=0 GIT_PROGRESS_DELAY=0 SSH_ASKPASS_REQUIRE=never
        GIT_SSH_COMMAND=\(try ShellQuoting.quote(try ShellQuoting.commandLine(sshWords)))
        export GIT_TERMINAL_PROMPT GIT_PROGRESS_DELAY SSH_ASKPASS_REQUIRE GIT_SSH_COMMAND
        \(ProjectScriptExit.requireGit)root=\(try ShellQuoting.quotePath(locations.workspaceRoot))
        dest=$root/\(try ShellQuoting.quote(name)) tmp=$root/\(temporaryName)
        mkdir -p "$root" || exit \(ProjectScriptExit.rootUnavailable)
        \(Self.finishedFunction)
        done_at() { printf '%s\\000' "$(cd -P "$dest" && pwd -P)" "$(git -C "$dest" symbolic-ref --short -q HEAD)" "$1"; exit 0; }
        if [ -e "$dest" ] || [ -L "$dest" ]; then finished && done_at existing; exit \(ProjectScriptExit.destinationExists); fi
        rm -rf "$root"/\(try ShellQuoting.quote(Self.temporaryPrefix(for: name)))????????????
        trap 'rm -rf "$tmp"; exit 143' HUP INT TERM
        \(try ShellQuoting.commandLine(git)) -- "$url" "$tmp" </dev/null
        status=$?
        if [ $status -ne 0 ]; then rm -rf "$tmp"; exit $status; fi
        if [ -e "$dest" ] || [ -L "$dest" ]; then rm -rf "$tmp"; finished && done_at existing; exit \(ProjectScriptExit.destinationExists); fi
        mv "$tmp" "$dest" || { rm -rf "$tmp"; exit \(ProjectScriptExit.renameFailed); }
        trap - HUP INT TERM
        done_at new

        """
    }

    /// The temporary directories of clones into `name` start with this.
    static func temporaryPrefix(for name: String) -> String { ".rws-clone-\(name)-" }

    /// `finished`: whether `$dest` is a complete clone of `$url` (on branch `$want` when set): a
    /// git work tree whose origin is that address, with a commit checked out and nothing missing.
    static let finishedFunction = #"""
        finished() {
          [ -d "$dest/.git" ] && [ ! -L "$dest" ] || return 1
          [ "$(git -C "$dest" config --get remote.origin.url)" = "$url" ] || return 1
          git -C "$dest" rev-parse -q --verify HEAD >/dev/null || return 1
          on_want=$(git -C "$dest" symbolic-ref --short -q HEAD || git -C "$dest" describe --tags --exact-match 2>/dev/null)
          [ -z "$want" ] || [ "$on_want" = "$want" ] || return 1
          [ -z "$(git -C "$dest" status --porcelain --untracked-files=no 2>/dev/null)" ]
        }
        """#

    /// Removes the temporary directory, whatever state the clone left it in.
    func cleanupScript() throws(ShellQuotingError) -> String {
        "rm -rf -- \(try ShellQuoting.quotePath(locations.workspaceRoot))/\(temporaryName)"
    }

    /// The destination path as configured, for messages.
    var destination: String {
        locations.configuredPath(of: name)
    }
}
