/// The POSIX sh scripts behind the shell fallback: constant ``RemoteScript``s, the path and the
/// options as positional arguments. Every path goes through ``ShellQuoting/quotePath(_:)``;
/// `~` stays the remote `$HOME`.
///
/// Tools used: `sh`, `ls -d` (for the C library's words on a missing path), `find` (`-prune`,
/// `-exec {} +`), `stat` (GNU/busybox `-c` or BSD `-f`), `readlink` (symlink targets), `cat`,
/// `tail -c`, `head -c`, `chmod`, `mv`, `mkdir`, `rmdir`, `rm`.
enum ShellFileScripts {
    /// How a script fails: always 1; stderr says why (see ``ShellFileErrors``).
    enum Exit: Int32, RemoteScriptExit {
        /// The operation failed.
        case failed = 1
    }

    /// Settings and helpers every script starts with. `rws_gone P` explains why P cannot be
    /// reached (in `ls`'s words) and fails.
    private static let prelude: StaticString = #"""
        # shellcheck disable=SC2317 # not every script calls every helper
        LC_ALL=C; export LC_ALL
        rws_fail() { printf 'rws-error:%s\n' "$1" >&2; exit 1; }
        rws_exists() { [ -e "$1" ] || [ -h "$1" ]; }
        rws_gone() { [ -h "$1" ] && rws_fail ENOENT; ls -d -- "$1" >/dev/null; exit 1; }

        """#

    /// `rws_stat` sets `o` and `f`, the `stat` option and format of this system's `stat`.
    private static let statHelper: StaticString = #"""
        rws_stat() {
          if stat -c %s / >/dev/null 2>&1; then o=-c; f='%f %s %u %g %Y %n'
          elif stat -f %z / >/dev/null 2>&1; then o=-f; f='%Xp %z %u %g %Dm %N'
          else printf 'rws-missing:stat\n' >&2; exit 1; fi
        }

        """#

    /// `find` complains (and exits non-zero) about entries that vanish while it runs; those are
    /// simply not listed, as over SFTP. Per batch of `find` results: `B`, the names, an empty name, the `stat` lines, NUL, then
    /// (name, link target) pairs for symlinks when `t=1`, an empty name. Run by `find`, with `o`, `f` and `t` exported.
    static let listBatch = RemoteScript(
        step: "listing a batch",
        body: #"""
            # shellcheck disable=SC2154 # o, f and t come from the list script
            printf 'B\0'; for n; do printf '%s\0' "$n"; done; printf '\0'
            stat "$o" "$f" -- "$@" 2>/dev/null; printf '\0'
            if [ "$t" = 1 ]; then for n; do
              if [ -h "$n" ] && l=$(readlink -- "$n" && printf x); then printf '%s\0%s\0' "$n" "${l%?x}"; fi
            done; fi
            printf '\0'
            """#)

    /// `$1` the directory, `$2` 1 for symlink targets, `$3` ``listBatch``'s body.
    static let list = RemoteScript(
        step: "listing", exits: Exit.self, body: prelude, statHelper,
        #"""
        d=$1 t=$2 batch=$3
        if [ ! -d "$d" ]; then [ -e "$d" ] && rws_fail ENOTDIR; rws_gone "$d"; fi
        { cd -- "$d" 2>/dev/null && [ -r . ]; } || rws_fail EACCES
        command -v find >/dev/null 2>&1 || { printf 'rws-missing:find\n' >&2; exit 1; }
        rws_stat; export o f t
        find . ! -name . -prune -exec sh -c "$batch" sh {} + 2>/dev/null
        exit 0
        """#)

    /// `$1` the path, `$2` 1 to follow a symlink.
    static let stat = RemoteScript(
        step: "stat", exits: Exit.self, body: prelude, statHelper,
        #"""
        p=$1
        rws_stat
        if [ "$2" = 1 ]; then stat -L "$o" "$f" -- "$p"; else stat "$o" "$f" -- "$p"; fi
        """#)

    /// `$1` the link.
    static let readLink = RemoteScript(
        step: "reading the link", exits: Exit.self, body: prelude,
        #"""
        p=$1
        [ -h "$p" ] || { rws_exists "$p" && rws_fail EINVAL; rws_gone "$p"; }
        readlink -- "$p"
        """#)

    /// `$1` the file, `$2` the first byte to read (1-based), `$3` how many bytes, empty for all.
    static let read = RemoteScript(
        step: "reading", exits: Exit.self, body: prelude,
        #"""
        p=$1 start=$2 length=$3
        [ -d "$p" ] && rws_fail EISDIR
        [ "$start" = 1 ] && [ -z "$length" ] && exec cat -- "$p"
        rws_exists "$p" || rws_gone "$p"
        [ "$start" = 1 ] && exec head -c "$length" -- "$p"
        [ -z "$length" ] && exec tail -c "+$start" -- "$p"
        [ -r "$p" ] || rws_fail EACCES
        tail -c "+$start" -- "$p" | head -c "$length"
        """#)

    /// Writes stdin to a temporary file next to the path, sets the permissions, and renames it over
    /// the path: `$1` the path, `$2` its parent, `$3` the temporary file's name, `$4` the octal permissions.
    static let write = RemoteScript(
        step: "writing", exits: Exit.self, body: prelude,
        #"""
        p=$1 d=$2; tmp=$d/$3
        [ -d "$p" ] && rws_fail EISDIR
        if [ ! -d "$d" ]; then [ -e "$d" ] && rws_fail ENOENT; rws_gone "$d"; fi
        (umask 077; cat > "$tmp") || { rm -f -- "$tmp"; exit 1; }
        { chmod "$4" "$tmp" && mv -f -- "$tmp" "$p"; } || { rm -f -- "$tmp"; exit 1; }
        """#)

    /// Appends stdin to `$1`.
    static let append = RemoteScript(
        step: "appending to", exits: Exit.self, body: prelude,
        #"""
        p=$1
        [ -d "$p" ] && rws_fail EISDIR
        cat >> "$p"
        """#)

    /// Writes stdin to `$1` in place (appended with `$2` = 1, else after emptying it), creating
    /// it private; then, unless `$3` is empty, gives it the octal permissions `$3` and the
    /// modification time `$4` (seconds since 1970).
    static let place = RemoteScript(
        step: "writing", exits: Exit.self, body: prelude,
        #"""
        p=$1
        [ -d "$p" ] && rws_fail EISDIR
        if [ "$2" = 1 ]; then (umask 077; cat >> "$p") || exit 1; else (umask 077; cat > "$p") || exit 1; fi
        [ -z "$3" ] || { chmod "$3" -- "$p" && touch -c -d "@$4" -- "$p"; }
        """#)

    /// `$1` the directory, `$2` the octal permissions, `$3` 1 to make missing parents too.
    static let makeDirectory = RemoteScript(
        step: "creating the directory", exits: Exit.self, body: prelude,
        #"""
        # shellcheck disable=SC2174 # the mode is for the directory asked for, as over SFTP
        if [ "$3" = 1 ]; then mkdir -p -m "$2" -- "$1"; else mkdir -m "$2" -- "$1"; fi
        """#)

    /// `$1` the path, `$2` 1 to remove a directory with everything in it.
    static let remove = RemoteScript(
        step: "removing", exits: Exit.self, body: prelude,
        #"""
        p=$1
        rws_exists "$p" || rws_gone "$p"
        if [ "$2" = 1 ]; then rm -rf -- "$p"
        elif [ -d "$p" ] && [ ! -h "$p" ]; then rmdir -- "$p"
        else rm -f -- "$p"; fi
        """#)

    /// Finishes an upload: gives the temporary `$1` the permissions `$3` and modification time
    /// `$4` (seconds since 1970), then renames it over `$2`.
    static let finishUpload = RemoteScript(
        step: "finishing the upload of", exits: Exit.self, body: prelude,
        #"""
        tmp=$1 p=$2
        [ -d "$p" ] && rws_fail EISDIR
        chmod "$3" -- "$tmp" && touch -c -d "@$4" -- "$tmp" && mv -f -- "$tmp" "$p"
        """#)

    /// `rws_run FIRST N` sets `a` to `"${FIRST}" … "${FIRST+N-1}"`: `eval` then passes those N of
    /// the script's arguments to one command, so a tree's thousands of folders cost a few processes
    /// on the box, not one or two each.
    private static let runHelper: StaticString = #"""
        rws_run() { a='' i=$1 e=$(($1 + $2)); while [ "$i" -lt "$e" ]; do a="$a \"\${$i}\""; i=$((i + 1)); done; }

        """#

    /// Makes the folders of a directory upload, its arguments on stdin (``RemoteScript/input(_:)``):
    /// runs of paths, each its count then its paths, parents before their contents. A folder gets
    /// mode 700 (``finishTree`` gives it its own); one that is already a folder is kept.
    static let makeFolders = RemoteScript(
        step: "creating the folders of", exits: Exit.self, body: prelude, RemoteScript.argumentsFromInput, runHelper,
        #"""
        while [ $# -gt 0 ]; do
          rws_run 2 "$1"
          # shellcheck disable=SC2174 # each folder is the deepest of its own path: its parents came first
          eval "mkdir -p -m 700 -- $a" || exit 1
          shift $(($1 + 1))
        done
        """#)

    /// Finishes a directory upload, its arguments on stdin (``RemoteScript/input(_:)``: a tree's
    /// list outgrows a command line): in the temporary tree `$1`, makes the `$3` symbolic links
    /// given next (target, path pairs), then gives the directories their times and modes in runs
    /// (`t` seconds since 1970, or `m` octal mode, then a count and that many paths; times first,
    /// while every folder can be entered, then modes, deepest folders first), then renames the tree
    /// to `$2`, which must not exist.
    static let finishTree = RemoteScript(
        step: "finishing the upload of", exits: Exit.self, body: prelude, RemoteScript.argumentsFromInput, runHelper,
        #"""
        tmp=$1 p=$2 n=$3
        shift 3
        while [ "$n" -gt 0 ]; do
          { ! rws_exists "$2" || rm -f -- "$2"; } && ln -s -- "$1" "$2" || exit 1
          shift 2
          n=$((n - 1))
        done
        while [ $# -gt 0 ]; do
          rws_run 4 "$3"
          case $1 in
            t) eval "touch -c -d \"@\$2\" -- $a" ;;
            m) eval "chmod \"\$2\" -- $a" ;;
            *) false ;;
          esac || exit 1
          shift $(($3 + 3))
        done
        rws_exists "$p" && rws_fail EEXIST
        mv -- "$tmp" "$p"
        """#)

    /// Renames $1 over $2, replacing it (one `rename(2)`): what SFTP v3 cannot do. The paths are
    /// SFTP's (absolute, or relative to the login directory, where commands start too), so they
    /// go as plain words.
    static let replace = RemoteScript(
        step: "replacing",
        body: #"""
            LC_ALL=C exec mv -f -- "$1" "$2"
            """#)

    /// Prints the remote home.
    static let home = RemoteScript(
        step: "finding the home directory",
        body: #"""
            printf '%s' "$HOME"
            """#)

    /// `$1` a directory: the kilobytes free for the user there (`df -P`), or nothing when `df`
    /// cannot tell. Run only to explain a failed write.
    static let freeSpace = RemoteScript(
        step: "checking the free space",
        body: #"""
            df -Pk -- "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'
            """#)

    /// Every script here, for tests.
    static let all = [
        listBatch, list, stat, readLink, read, write, append, place, makeDirectory, remove, finishUpload, makeFolders, finishTree, replace,
        home, freeSpace,
    ]

    /// A flag as a word: `1` or `0`.
    static func flag(_ on: Bool) -> RemoteScript.Argument { .word(on ? "1" : "0") }
}
