import SSHClient

/// The script that lists a project's files: `git ls-files` in a repository, a pruned `find`
/// elsewhere, and nothing but `same` when the repository's stamp (HEAD, and the index's size
/// and modification time) is the one the caller already has.
enum FileListScript {
    enum Exit: Int32, RemoteScriptExit {
        /// `$1` is not a directory that can be entered.
        case noDirectory = 210
    }

    /// Lists the files under directory `$1`; `$2` is the stamp the caller has (or empty).
    /// Output, NUL-separated: `same`; or `git`, the stamp, then the paths; or `find`, an empty
    /// stamp, then the paths (each starting with `./`).
    static let script = RemoteScript(
        step: "listing the project's files", exits: Exit.self,
        body: #"""
            cd -- "$1" 2>/dev/null || exit 210
            if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
              index=$(git rev-parse --git-path index)
              head=$(git rev-parse -q --verify HEAD 2>/dev/null)
              stamp="$head $(wc -c < "$index" 2>/dev/null) $(date -r "$index" +%s 2>/dev/null)"
              if [ "$stamp" = "$2" ]; then printf 'same\000'; exit 0; fi
              printf 'git\000%s\000' "$stamp"
              exec git -c core.quotepath=off ls-files -co --exclude-standard -z
            fi
            printf 'find\000\000'
            exec find . \( -name .git -o -name node_modules -o -name .build -o -name .svn -o -name .hg \
              -o -name __pycache__ -o -name .venv -o -name .tox -o -name .gradle -o -name target -o -name dist \) -prune \
              -o -type f -exec printf '%s\000' {} +
            """#)
}
