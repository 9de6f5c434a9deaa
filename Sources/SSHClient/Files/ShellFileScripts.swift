/// The POSIX sh scripts behind the shell fallback. Every path goes through
/// ``ShellQuoting/quotePath(_:)``; `~` stays the remote `$HOME`.
///
/// Tools used: `sh`, `ls -d` (for the C library's words on a missing path), `find` (`-prune`,
/// `-exec {} +`), `stat` (GNU/busybox `-c` or BSD `-f`), `readlink` (symlink targets), `cat`,
/// `tail -c`, `head -c`, `chmod`, `mv`, `mkdir`, `rmdir`, `rm`.
enum ShellFileScripts {
    /// Settings and helpers every script starts with. `rws_gone P` explains why P cannot be
    /// reached (in `ls`'s words) and fails.
    private static let prelude = """
        LC_ALL=C; export LC_ALL
        rws_fail() { printf 'rws-error:%s\\n' "$1" >&2; exit 1; }
        rws_exists() { [ -e "$1" ] || [ -h "$1" ]; }
        rws_gone() { [ -h "$1" ] && rws_fail ENOENT; ls -d -- "$1" >/dev/null; exit 1; }
        rws_stat() {
          if stat -c %s / >/dev/null 2>&1; then o=-c; f='%f %s %u %g %Y %n'
          elif stat -f %z / >/dev/null 2>&1; then o=-f; f='%Xp %z %u %g %Dm %N'
          else printf 'rws-missing:stat\\n' >&2; exit 1; fi
        }

        """

    /// `find` complains (and exits non-zero) about entries that vanish while it runs; those are
    /// simply not listed, as over SFTP. Per batch of `find` results: `B`, the names, an empty name, the `stat` lines, NUL, then
    /// (name, link target) pairs for symlinks when `t=1`, an empty name.
    private static let listBatch = #"""
        printf 'B\0'; for n; do printf '%s\0' "$n"; done; printf '\0'
        stat "$o" "$f" -- "$@" 2>/dev/null; printf '\0'
        if [ "$t" = 1 ]; then for n; do
          if [ -h "$n" ] && l=$(readlink -- "$n" && printf x); then printf '%s\0%s\0' "$n" "${l%?x}"; fi
        done; fi
        printf '\0'
        """#

    static func list(_ path: String, symlinkTargets: Bool) throws -> String {
        let quoted = try ShellQuoting.quotePath(path)
        return prelude + """
            d=\(quoted)
            if [ ! -d "$d" ]; then [ -e "$d" ] && rws_fail ENOTDIR; rws_gone "$d"; fi
            { cd -- "$d" 2>/dev/null && [ -r . ]; } || rws_fail EACCES
            command -v find >/dev/null 2>&1 || { printf 'rws-missing:find\\n' >&2; exit 1; }
            rws_stat; t=\(symlinkTargets ? 1 : 0); export o f t
            find . ! -name . -prune -exec sh -c \(try ShellQuoting.quote(listBatch)) sh {} + 2>/dev/null
            exit 0
            """
    }

    static func stat(_ path: String, followSymlinks: Bool) throws -> String {
        prelude + "p=\(try ShellQuoting.quotePath(path))\nrws_stat\nstat \(followSymlinks ? "-L " : "")\"$o\" \"$f\" -- \"$p\""
    }

    static func readLink(_ path: String) throws -> String {
        prelude + "p=\(try ShellQuoting.quotePath(path))\n[ -h \"$p\" ] || { rws_exists \"$p\" && rws_fail EINVAL; rws_gone \"$p\"; }\nreadlink -- \"$p\""
    }

    static func read(_ path: String, offset: UInt64, length: UInt64?) throws -> String {
        var script = prelude + "p=\(try ShellQuoting.quotePath(path))\n[ -d \"$p\" ] && rws_fail EISDIR\n"
        switch (offset, length) {
        case (0, nil): return script + "exec cat -- \"$p\""
        case (0, let length?): return script + "rws_exists \"$p\" || rws_gone \"$p\"\nexec head -c \(length) -- \"$p\""
        case (let offset, nil): script += "rws_exists \"$p\" || rws_gone \"$p\"\nexec tail -c +\(offset + 1) -- \"$p\""
        case (let offset, let length?):
            script += "rws_exists \"$p\" || rws_gone \"$p\"\n[ -r \"$p\" ] || rws_fail EACCES\n"
            script += "tail -c +\(offset + 1) -- \"$p\" | head -c \(length)"
        }
        return script
    }

    /// Writes stdin to a temporary file next to `path`, sets `permissions`, and renames it over `path`.
    static func write(_ path: String, permissions: UInt32, temporaryName: String) throws -> String {
        let parent = RemotePath.split(path).parent
        return prelude + """
            p=\(try ShellQuoting.quotePath(path)); d=\(try ShellQuoting.quotePath(parent)); tmp="$d"/\(try ShellQuoting.quote(temporaryName))
            [ -d "$p" ] && rws_fail EISDIR
            if [ ! -d "$d" ]; then [ -e "$d" ] && rws_fail ENOENT; rws_gone "$d"; fi
            (umask 077; cat > "$tmp") || { rm -f -- "$tmp"; exit 1; }
            { chmod \(String(permissions, radix: 8)) "$tmp" && mv -f -- "$tmp" "$p"; } || { rm -f -- "$tmp"; exit 1; }
            """
    }

    static func append(_ path: String) throws -> String {
        prelude + "p=\(try ShellQuoting.quotePath(path))\n[ -d \"$p\" ] && rws_fail EISDIR\ncat >> \"$p\""
    }

    static func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) throws -> String {
        prelude + "mkdir \(intermediates ? "-p " : "")-m \(String(permissions, radix: 8)) -- \(try ShellQuoting.quotePath(path))"
    }

    static func remove(_ path: String, recursively: Bool) throws -> String {
        let removal = recursively
            ? "rm -rf -- \"$p\""
            : "if [ -d \"$p\" ] && [ ! -h \"$p\" ]; then rmdir -- \"$p\"; else rm -f -- \"$p\"; fi"
        return prelude + "p=\(try ShellQuoting.quotePath(path))\nrws_exists \"$p\" || rws_gone \"$p\"\n" + removal
    }

    static let home = "printf '%s' \"$HOME\""
}
