import SSHClient

/// The small scripts of ``ProjectManager``: creating a project and registering its history folder.
enum ProjectScripts {
    /// Makes project `$2` in the workspace root `$1`, with `git init` when `$3` is 1; prints its
    /// real path and branch, NUL-terminated.
    static let create = RemoteScript(
        step: "creating the project", exits: ProjectScriptExit.self,
        body: #"""
            if [ "$3" = 1 ]; then command -v git >/dev/null 2>&1 || exit 203; fi
            root=$1
            dest=$root/$2
            mkdir -p "$root" || exit 202
            if [ -e "$dest" ] || [ -L "$dest" ]; then exit 201; fi
            if ! mkdir "$dest"; then { [ -e "$dest" ] || [ -L "$dest" ]; } && exit 201; exit 216; fi
            branch=
            if [ "$3" = 1 ]; then
              git init -q "$dest" >&2 || { rm -rf "$dest"; exit 1; }
              branch=$(git -C "$dest" symbolic-ref --short -q HEAD)
            fi
            printf '%s\000' "$(cd -P "$dest" && pwd -P)" "$branch"
            """#)

    /// Makes the project folder `$1` in the `projects` folder of the first Claude data directory
    /// of `$2...` that exists (else of `$2`, else of `~/.claude`); prints its real path, NUL-terminated.
    static let registerHistoryFolder = RemoteScript(
        step: "registering the project with Claude Code",
        body: #"""
            folder=$1; shift
            base=
            for c; do if [ -d "$c" ]; then base=$c; break; fi; done
            if [ -z "$base" ]; then if [ $# -gt 0 ]; then base=$1; else base=$HOME/.claude; fi; fi
            dir=$base/projects/$folder
            mkdir -p "$dir" && cd -P "$dir" && printf '%s\000' "$(pwd -P)"
            """#)
}
