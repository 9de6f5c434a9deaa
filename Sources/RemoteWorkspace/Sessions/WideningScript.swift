import SSHClient

/// Reads wider windows for the files whose first window left their summary unsure: one
/// `head -c` and one `tail -c` over many files of a projects folder (each list one argument, a
/// path a line), framed like the listing's. A tail that grows past what the client holds
/// (`held` bytes from the end) is sent without them: only the bytes before.
/// A projects folder removed since the listing read it widens nothing: its files keep their first
/// windows, and the listing goes on.
enum WideningScript {
    /// Its arguments on stdin: a list of any length fits in one command.
    static let script = RemoteScript(
        step: "reading wider windows",
        body: """
            # shellcheck disable=SC2086 # file lists are split into words at newlines

            """, RemoteScript.argumentsFromInput,
        #"""
        b=$1 w=$2 d=$3 h=$4 t=$5 k=${6:-0}
        nl='
        '
        cd "$d" 2>/dev/null || { printf '\n%s end\n' "$b"; exit 0; }
        IFS=$nl
        set -f
        [ -n "$h" ] && { printf '\n%s heads\n' "$b"; head -c "$w" /dev/null $h; }
        if [ -n "$t" ] && [ "$k" -gt 0 ]; then
            # The client holds the last k bytes: each file's frame as tail's own, without them.
            printf '\n%s tails\n==> /dev/null <==\n' "$b"
            for f in $t; do
                printf '\n==> %s <==\n' "$f"
                tail -c "$w" "$f" 2>/dev/null | head -c "$((w - k))"
            done
        elif [ -n "$t" ]; then
            printf '\n%s tails\n' "$b"
            tail -c "$w" /dev/null $t
        fi
        printf '\n%s end\n' "$b"
        """#)

    /// What to widen for one listed file.
    struct Request {
        var index: Int
        var head: Bool
        var tail: Bool
    }

    /// Replaces the requested sides of each file's window with its first or last `wide` bytes.
    /// Returns the bytes received and the commands run.
    ///
    /// With `held` > 0 (tails only, each holding exactly `held` bytes), the bytes before the held
    /// ones are read and put before them.
    static func widen(
        _ requests: [Request], files: inout [ListedFile], wide: Int, held: Int = 0, host: any ScriptHost
    ) async throws -> (bytes: Int, commands: Int) {
        var transferred = 0
        var commands = 0
        for group in Dictionary(grouping: requests, by: { files[$0.index].folder }).values {
            transferred += try await widenChunk(group, files: &files, wide: wide, held: held, host: host)
            commands += 1
        }
        return (transferred, commands)
    }

    private static func widenChunk(
        _ chunk: [Request], files: inout [ListedFile], wide: Int, held: Int, host: any ScriptHost
    ) async throws -> Int {
        let heads = chunk.filter(\.head).map { "./" + files[$0.index].stat.path }
        let tails = chunk.filter(\.tail).map { "./" + files[$0.index].stat.path }
        // Each list is one argument, a path a line (listed paths hold no newline): no shell loop splits them.
        let arguments: [RemoteScript.Argument] = [
            .word(String(wide)), .path(files[chunk[0].index].folder), .word(heads.joined(separator: "\n")),
            .word(tails.joined(separator: "\n")), .word(String(held)),
        ]
        let (sections, transferred) = try await script.sections(on: host, arguments, argumentsOnInput: true)
        var expected: [String: Int] = [:]
        var indices: [String: Int] = [:]
        for request in chunk {
            let file = files[request.index]
            expected["./" + file.stat.path] = min(file.stat.size, wide) - held
            indices["./" + file.stat.path] = request.index
        }
        for section in sections {
            for (name, piece) in MultiFileOutput.split(section.content, expectedLength: { expected[$0] }) {
                guard let index = indices[name], var window = files[index].window else { continue }
                if section.header == "heads" {
                    window.head = piece.bytes
                } else if held > 0 {
                    // Bytes of another length (the file changed) do not line up with those held.
                    guard piece.isExact else { continue }
                    window.tail = piece.bytes + window.tail
                } else {
                    window.tail = piece.bytes
                }
                files[index].take(window, stable: piece.isExact)
            }
        }
        return transferred
    }
}
