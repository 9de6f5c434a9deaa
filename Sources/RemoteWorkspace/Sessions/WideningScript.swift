import SSHClient

/// Reads wider windows for the files whose first window left their summary unsure: one
/// `head -c` and one `tail -c` over many files of a projects folder (each list one argument, a
/// path a line), framed like the listing's.
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
        b=$1 w=$2 d=$3 h=$4 t=$5
        nl='
        '
        cd "$d" 2>/dev/null || { printf '\n%s end\n' "$b"; exit 0; }
        IFS=$nl
        set -f
        [ -n "$h" ] && { printf '\n%s heads\n' "$b"; head -c "$w" /dev/null $h; }
        [ -n "$t" ] && { printf '\n%s tails\n' "$b"; tail -c "$w" /dev/null $t; }
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
    static func widen(
        _ requests: [Request], files: inout [ListedFile], wide: Int, host: any ScriptHost
    ) async throws -> (bytes: Int, commands: Int) {
        var transferred = 0
        var commands = 0
        for group in Dictionary(grouping: requests, by: { files[$0.index].folder }).values {
            transferred += try await widenChunk(group, files: &files, wide: wide, host: host)
            commands += 1
        }
        return (transferred, commands)
    }

    private static func widenChunk(_ chunk: [Request], files: inout [ListedFile], wide: Int, host: any ScriptHost) async throws -> Int {
        let heads = chunk.filter(\.head).map { "./" + files[$0.index].stat.path }
        let tails = chunk.filter(\.tail).map { "./" + files[$0.index].stat.path }
        // Each list is one argument, a path a line (listed paths hold no newline): no shell loop splits them.
        let arguments: [RemoteScript.Argument] = [
            .word(String(wide)), .path(files[chunk[0].index].folder), .word(heads.joined(separator: "\n")),
            .word(tails.joined(separator: "\n")),
        ]
        let (sections, transferred) = try await script.sections(on: host, arguments, argumentsOnInput: true)
        var expected: [String: Int] = [:]
        var indices: [String: Int] = [:]
        for request in chunk {
            let file = files[request.index]
            expected["./" + file.stat.path] = min(file.stat.size, wide)
            indices["./" + file.stat.path] = request.index
        }
        for section in sections {
            for (name, piece) in MultiFileOutput.split(section.content, expectedLength: { expected[$0] }) {
                guard let index = indices[name], var window = files[index].window else { continue }
                if section.header == "heads" { window.head = piece.bytes } else { window.tail = piece.bytes }
                files[index].take(window, stable: piece.isExact)
            }
        }
        return transferred
    }
}
