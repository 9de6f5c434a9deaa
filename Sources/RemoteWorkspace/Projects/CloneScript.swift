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
        temporaryName =
            Self.temporaryPrefix(for: name) + String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    /// The script's arguments.
    func arguments() throws(ShellQuotingError) -> [RemoteScript.Argument] {
        var sshWords = ["ssh", "-o", "BatchMode=yes"]
        for option in options.sshOptions { sshWords += ["-o", option] }
        var gitOptions: [RemoteScript.Argument] = []
        if let branch { gitOptions += [.word("--branch"), .word(branch)] }
        if let depth { gitOptions += [.word("--depth"), .word(String(depth))] }
        let url: RemoteScript.Argument = source.kind == .local && !source.url.hasPrefix("file://") ? .path(source.url) : .word(source.url)
        return [
            url, .word(branch ?? ""), .word(try ShellQuoting.commandLine(sshWords)), .path(locations.workspaceRoot), .word(name),
            .word(temporaryName), .word(options.allowLocal ? "always" : "never"),
        ] + gitOptions
    }

    /// `$1` the address, `$2` the branch wanted (or empty), `$3` the ssh command for git, `$4` the
    /// workspace root, `$5` the project name, `$6` the temporary directory's name, `$7` whether
    /// `file://` is allowed (`always`, `never`); the rest are options for `git clone`.
    static let script = RemoteScript(
        step: "cloning", exits: ProjectScriptExit.self,
        body: #"""
            LC_ALL=C; export LC_ALL
            url=$1 want=$2
            GIT_TERMINAL_PROMPT=0 GIT_PROGRESS_DELAY=0 SSH_ASKPASS_REQUIRE=never
            GIT_SSH_COMMAND=$3
            export GIT_TERMINAL_PROMPT GIT_PROGRESS_DELAY SSH_ASKPASS_REQUIRE GIT_SSH_COMMAND
            command -v git >/dev/null 2>&1 || exit 203
            root=$4 name=$5 allow=$7
            dest=$root/$name tmp=$root/$6
            shift 7
            mkdir -p "$root" || exit 202
            finished() {
              { [ -d "$dest/.git" ] && [ ! -L "$dest" ]; } || return 1
              [ "$(git -C "$dest" config --get remote.origin.url)" = "$url" ] || return 1
              git -C "$dest" rev-parse -q --verify HEAD >/dev/null || return 1
              on_want=$(git -C "$dest" symbolic-ref --short -q HEAD || git -C "$dest" describe --tags --exact-match 2>/dev/null)
              [ -z "$want" ] || [ "$on_want" = "$want" ] || return 1
              [ -z "$(git -C "$dest" status --porcelain --untracked-files=no 2>/dev/null)" ]
            }
            done_at() { printf '%s\000' "$(cd -P "$dest" && pwd -P)" "$(git -C "$dest" symbolic-ref --short -q HEAD)" "$1"; exit 0; }
            if [ -e "$dest" ] || [ -L "$dest" ]; then finished && done_at existing; exit 201; fi
            rm -rf "$root"/".rws-clone-$name-"????????????
            trap 'rm -rf "$tmp"; exit 143' HUP INT TERM
            mkdir "$tmp" 2>/dev/null || exit 216
            git -c protocol.ext.allow=never -c "protocol.file.allow=$allow" clone --progress "$@" -- "$url" "$tmp" </dev/null
            status=$?
            if [ $status -ne 0 ]; then rm -rf "$tmp"; exit $status; fi
            if [ -e "$dest" ] || [ -L "$dest" ]; then rm -rf "$tmp"; finished && done_at existing; exit 201; fi
            mv "$tmp" "$dest" || { rm -rf "$tmp"; exit 204; }
            trap - HUP INT TERM
            done_at new
            """#)

    /// Removes `$2` in the workspace root `$1`, whatever state the clone left it in.
    static let cleanup = RemoteScript(
        step: "removing the clone's temporary directory",
        body: #"""
            # shellcheck disable=SC2115 # $2 is never empty
            rm -rf -- "$1/$2"
            """#)

    /// The clean-up's arguments.
    var cleanupArguments: [RemoteScript.Argument] { [.path(locations.workspaceRoot), .word(temporaryName)] }

    /// The temporary directories of clones into `name` start with this.
    static func temporaryPrefix(for name: String) -> String { ".rws-clone-\(name)-" }

    /// The destination path as configured, for messages.
    var destination: String {
        locations.configuredPath(of: name)
    }
}
