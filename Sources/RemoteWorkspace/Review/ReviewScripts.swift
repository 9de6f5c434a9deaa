import SSHClient

/// The scripts of ``ProjectReview``. Each starts in the repository (`$1`), checks that git is
/// there and that `$1` is inside a work tree, and works from the top of that work tree.
enum ReviewScripts {
    /// Enters the repository `$1` and its top; shared by every review script.
    private static let enter: StaticString = #"""
        command -v git >/dev/null 2>&1 || exit 204
        cd "$1" 2>/dev/null || exit 201
        top=$(git rev-parse --show-toplevel 2>/dev/null) || exit 202
        cd "$top" || exit 201
        shift

        """#

    /// `git status` of the repository `$1`, porcelain v2, NUL-separated.
    static let status = RemoteScript(
        step: "reading git status", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        git -c core.quotePath=true status --porcelain=v2 -z --branch || exit 203
        """#)

    /// The patch of the repository `$1` against base `$2` (`worktree`, `staged`, `rev`; the
    /// revision or tree is `$3`), cut to `$4` bytes per file and `$5` in all; work-tree files
    /// over `$6` bytes are not diffed (listed first, between `rws-large` markers). Paths to
    /// limit the diff to follow.
    ///
    /// Untracked files show as new: for `worktree` and `rev`, git reads a copy of the index with
    /// them added as intent-to-add (`git add -N`), so the real index is never touched. Header
    /// lines are always sent, so every file is listed; hunks are cut. Large files are made
    /// binary through a temporary attributes file. After each file's patch comes
    /// a line `\1rws-end ADDED DELETED CUT_LINES CUT_BYTES`; the last line is `\1rws-done CUT`.
    static let diff = RemoteScript(
        step: "reading the diff", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        base=$1 rev=$2 per=$3 total=$4 big=$5
        shift 5
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/rws-diff.XXXXXX") || exit 1
        trap 'rm -rf "$tmp"' EXIT
        trap 'exit 143' HUP INT TERM
        printf '\001rws-large\n'
        LC_ALL=C find . -path ./.git -prune -o -type f -size +"$big"c -print | tee "$tmp/large"
        printf '\001rws-large-end\n'
        LC_ALL=C sed -e 's/^\.//' -e 's/[][\\*?]/\\\\&/g' -e 's/"/\\"/g' -e 's/.*/"&" -diff/' "$tmp/large" > "$tmp/attributes"
        if [ "$base" != staged ]; then
          index=$(git rev-parse --git-path index) || exit 203
          # -p: git trusts an entry's times only when the index is newer; a copy dated now would
          # hide a same-size edit made in the second of the last `git add`.
          if [ -f "$index" ]; then cp -p "$index" "$tmp/index" || exit 1; fi
          GIT_INDEX_FILE=$tmp/index
          export GIT_INDEX_FILE
          # Only untracked files: `add -N` on a conflicted path would hide its conflict.
          git ls-files -z -o --exclude-standard \
            | git --literal-pathspecs add -N --pathspec-from-file=- --pathspec-file-nul >/dev/null 2>"$tmp/err" \
            || { cat "$tmp/err" >&2; exit 203; }
        fi
        case $base in
          worktree) set -- -- "$@" ;;
          staged) set -- --cached -- "$@" ;;
          *) set -- "$rev" -- "$@" ;;
        esac
        {
          git -c core.quotePath=true -c core.attributesFile="$tmp/attributes" diff --no-color --no-ext-diff --no-textconv \
            --no-relative --src-prefix=a/ --dst-prefix=b/ -M "$@" 2>"$tmp/err"
          echo $? > "$tmp/status"
        } | LC_ALL=C awk -v per="$per" -v total="$total" '
          function flush() {
            if (open) printf "\001rws-end %d %d %d %d\n", added, deleted, cutlines, cutbytes
          }
          /^diff --(git|cc|combined) / {
            flush(); open = 1; added = 0; deleted = 0; cutlines = 0; cutbytes = 0; bytes = 0; hunk = 0; cutting = 0
          }
          {
            if (substr($0, 1, 1) == "@") { hunk = 1; match($0, /^@+/); width = RLENGTH - 1 }
            else if (hunk) {
              prefix = substr($0, 1, width)
              if (index(prefix, "+")) added++
              else if (index(prefix, "-")) deleted++
            }
            n = length($0) + 1
            if (!hunk) { print; sent += n; next }
            if (!cutting && (bytes + n > per || sent + n > total)) { cutting = 1; if (sent + n > total) over = 1 }
            if (cutting) { cutlines++; cutbytes += n } else { print; bytes += n; sent += n }
          }
          END { flush(); printf "\001rws-done %d\n", over ? 1 : 0 }'
        status=$(cat "$tmp/status" 2>/dev/null)
        if [ "$status" != 0 ]; then cat "$tmp/err" >&2; exit 203; fi
        """#)

    /// The whole work tree of `$1` as a git tree object (tracked and untracked files, ignored
    /// ones left out), written through a copy of the index so the real one is never touched;
    /// prints the tree's id. The object stays in the repository until git's garbage collection.
    static let snapshot = RemoteScript(
        step: "taking a snapshot of the work tree", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/rws-snapshot.XXXXXX") || exit 1
        trap 'rm -rf "$tmp"' EXIT
        trap 'exit 143' HUP INT TERM
        index=$(git rev-parse --git-path index) || exit 203
        if [ -f "$index" ]; then cp -p "$index" "$tmp/index" || exit 1; fi  # -p: as in `diff`
        GIT_INDEX_FILE=$tmp/index
        export GIT_INDEX_FILE
        git add -A -- . >/dev/null || exit 203
        git write-tree || exit 203
        """#)

    /// Acts on the NUL-separated paths on stdin (from the top of the repository, literal):
    /// `$2` is `stage` (`git add`: changes, new files and deletions), `unstage` (back to HEAD
    /// in the index; the work tree keeps the change), `restore` (tracked paths back to HEAD in
    /// the index and the work tree) or `clean` (untracked paths removed). git refuses a path
    /// outside the repository or beyond a symbolic link (exit 206).
    static let paths = RemoteScript(
        step: "changing files in the repository", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        tmp=$(mktemp "${TMPDIR:-/tmp}/rws-paths.XXXXXX") || exit 1
        trap 'rm -f "$tmp" "$tmp.in"' EXIT
        case $1 in
          stage) git --literal-pathspecs add --pathspec-from-file=- --pathspec-file-nul 2>"$tmp" ;;
          unstage)
            if git rev-parse -q --verify HEAD >/dev/null; then
              git --literal-pathspecs reset -q --pathspec-from-file=- --pathspec-file-nul 2>"$tmp"
            else
              git --literal-pathspecs rm -q --cached --pathspec-from-file=- --pathspec-file-nul 2>"$tmp"
            fi ;;
          restore)
            git --literal-pathspecs restore --source=HEAD --staged --worktree --pathspec-from-file=- --pathspec-file-nul 2>"$tmp" ;;
          clean)
            # git clean skips, silently, a path it will not remove (tracked, ignored, beyond a
            # symbolic link): each path given must come back as "Removing".
            cat > "$tmp.in" || exit 203
            given=$(tr -cd '\000' < "$tmp.in" | wc -c)
            removed=$(xargs -0 git --literal-pathspecs clean -f -d -- < "$tmp.in" 2>"$tmp" | grep -c '^Removing ')
            if [ -s "$tmp" ]; then
              cat "$tmp" >&2
              if grep -q -e 'outside repository' -e 'beyond a symbolic link' "$tmp"; then exit 206; fi
              exit 203
            fi
            [ "$removed" -eq "$given" ] && exit 0
            echo "not an untracked file of the repository (outside it, or beyond a symbolic link)" >&2
            exit 206 ;;
          *) exit 203 ;;
        esac
        status=$?
        [ $status -eq 0 ] && exit 0
        cat "$tmp" >&2
        if grep -q -e 'outside repository' -e 'beyond a symbolic link' "$tmp"; then exit 206; fi
        exit 203
        """#)

    /// Commits what is staged with the message on stdin; prints the new commit's id.
    static let commit = RemoteScript(
        step: "committing", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        if git rev-parse -q --verify HEAD >/dev/null; then
          git diff --cached --quiet && exit 205
        else
          [ -n "$(git ls-files --cached | head -n 1)" ] || exit 205
        fi
        git commit -q -F - >&2 || exit 203
        git rev-parse HEAD
        """#)

    /// `git push --progress` with the arguments given (remote, refspecs), never waiting on a
    /// prompt: no terminal prompts, ssh in batch mode, stdin closed. git's output goes to
    /// stderr as it comes (progress); a failure that asks for credentials exits 207.
    static let push = RemoteScript(
        step: "pushing", exits: ReviewScriptExit.self,
        body: enter,
        #"""
        GIT_TERMINAL_PROMPT=0 GIT_PROGRESS_DELAY=0 SSH_ASKPASS_REQUIRE=never
        GIT_SSH_COMMAND=${GIT_SSH_COMMAND:-ssh -o BatchMode=yes}
        export GIT_TERMINAL_PROMPT GIT_PROGRESS_DELAY SSH_ASKPASS_REQUIRE GIT_SSH_COMMAND
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/rws-push.XXXXXX") || exit 1
        trap 'rm -rf "$tmp"' EXIT
        trap 'exit 143' HUP INT TERM
        { git push --progress "$@" </dev/null 2>&1; echo $? > "$tmp/status"; } | tee "$tmp/log" >&2
        [ "$(cat "$tmp/status")" = 0 ] && exit 0
        if grep -q -e 'Permission denied' -e 'Authentication failed' -e 'could not read Username' -e 'could not read Password' \
          -e 'terminal prompts disabled' -e 'Invalid username or password' "$tmp/log"; then
          exit 207
        fi
        exit 203
        """#)

    /// Every review script, for the script tests.
    static let all: [RemoteScript] = [status, diff, snapshot, paths, commit, push]
}
