import SSHClient

/// The one remote command that gathers everything ``ProjectManager/listProjects()`` needs.
///
/// A POSIX sh script using only `cd -P`/`pwd -P`, `ls`, `grep`, `head`, `wc` and `stat` (GNU or
/// BusyBox `stat -c`, BSD `stat -f`, else `date -r`), plus git when present. It prints
/// NUL-terminated fields, so any byte a file name may hold arrives intact:
///
/// - `R` root: the workspace root's real path (empty when it does not exist);
/// - `W` workspace entry: name, real path, is-link (0/1), is-git (0/1), branch, dirty (0/1/empty);
/// - `C` Claude project folder: the projects folder's real path, folder name, session count, newest
///   session's mtime (epoch seconds), the `"cwd":"..."` member from the head of the newest session
///   that has one (JSON, decoded in Swift), and whether that directory exists (0/1).
enum ProjectScanScript {
    /// The command line for `locations`: `$1` the workspace root, then the Claude project folders.
    static func arguments(for locations: WorkspaceLocations) -> [RemoteScript.Argument] {
        [.path(locations.workspaceRoot)] + locations.claudeProjectFolders.map(RemoteScript.Argument.path)
    }

    static let script = RemoteScript(
        step: "listing projects",
        body: #"""
            # shellcheck disable=SC2010 # the session names are printed one per line and read as such
            LC_ALL=C; export LC_ALL
            f() { printf '%s\000' "$@"; }
            hasgit=0; command -v git >/dev/null 2>&1 && hasgit=1
            root=$1; shift
            if [ -d "$root" ]; then
              f R "$(cd -P "$root" && pwd -P)"
              for e in "$root"/*; do
                [ -d "$e" ] || continue
                real=$(cd -P "$e" 2>/dev/null && pwd -P) || real=
                link=0; [ -L "$e" ] && link=1
                git=0; branch=; dirty=
                if [ $hasgit = 1 ] && [ -e "$e/.git" ]; then
                  git=1
                  branch=$(git -C "$e" symbolic-ref --short -q HEAD 2>/dev/null || git -C "$e" rev-parse --short HEAD 2>/dev/null)
                  if st=$(git --no-optional-locks -C "$e" status --porcelain 2>/dev/null); then
                    if [ -n "$st" ]; then dirty=1; else dirty=0; fi
                  fi
                fi
                f W "${e##*/}" "$real" $link $git "$branch" "$dirty"
              done
            else
              f R ""
            fi

            for p; do
              [ -d "$p" ] || continue
              preal=$(cd -P "$p" && pwd -P) || continue
              for d in "$p"/*; do
                [ -d "$d" ] || continue
                files=$(ls -t "$d" 2>/dev/null | grep '\.jsonl$' | grep -v '^agent-')
                count=0; mtime=; cwd=; exists=0
                if [ -n "$files" ]; then
                  count=$(printf '%s\n' "$files" | wc -l)
                  newest=$(printf '%s\n' "$files" | head -n 1)
                  mtime=$(stat -c %Y "$d/$newest" 2>/dev/null || stat -f %m "$d/$newest" 2>/dev/null \
                    || date -r "$d/$newest" +%s 2>/dev/null)
                  cwd=$(printf '%s\n' "$files" | head -n 5 | while IFS= read -r s; do
                    c=$(head -c 65536 "$d/$s" | grep -o -E '"cwd":"([^"\\]|\\.)*"' | head -n 1)
                    if [ -n "$c" ]; then printf '%s' "$c"; break; fi
                  done)
                  case "$cwd" in
                    *\\*) ;;
                    ?*) v=${cwd#'"cwd":"'}; v=${v%'"'}; [ -d "$v" ] && exists=1 ;;
                  esac
                fi
                f C "$preal" "${d##*/}" $((count + 0)) "$mtime" "$cwd" $exists
              done

            done
            """#)
}
