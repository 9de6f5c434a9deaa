/// Reads the output of ``ReviewScripts/diff``: git's patch (cut per file and in total on the box)
/// with a marker line after each file that carries its full counts.
///
/// Marker lines start with byte 1, which no patch line can (git starts every line with a
/// prefix or a header word). Paths come from the headers, C-unquoted (the script asks git to
/// quote every unusual byte), so names with newlines, quotes or non-UTF-8 bytes survive.
struct GitDiffParser {
    private var files: [GitFileDiff] = []
    private var current: GitFileDiff?
    private var header = Header()
    private var hunk: GitHunk?
    private var oldLine = 0
    private var newLine = 0
    private var parents = 1
    private var large: Set<[UInt8]> = []
    private var readingLarge = false
    private var isCut = false
    private var done = false

    /// The diff in `output`.
    static func parse(_ output: [UInt8]) throws -> GitDiff {
        var parser = GitDiffParser()
        var lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines { try parser.read(Array(line)) }
        guard parser.done else { throw malformed("the output ended before its end marker") }
        return GitDiff(files: parser.files, isCut: parser.isCut)
    }

    private mutating func read(_ line: [UInt8]) throws {
        if line.first == 1 { return try marker(String(decoding: line.dropFirst(), as: UTF8.self)) }
        if readingLarge {
            large.insert(Array(line.starts(with: Array("./".utf8)) ? line.dropFirst(2) : line[...]))
            return
        }
        if line.starts(with: Array("diff --git ".utf8)) || line.starts(with: Array("diff --cc ".utf8))
            || line.starts(with: Array("diff --combined ".utf8))
        {
            try startFile(line)
            return
        }
        guard current != nil else {
            // `* Unmerged path P` stands for a conflicted path in a staged diff; status names it.
            if line.starts(with: Array("* Unmerged path ".utf8)) { return }
            throw malformed("a patch line before the first file header")
        }
        if line.first == UInt8(ascii: "@") {
            try startHunk(line)
        } else if hunk != nil {
            addLine(line)
        } else {
            try headerLine(line)
        }
    }

    private mutating func marker(_ text: String) throws {
        let words = text.split(separator: " ")
        switch words.first {
        case "rws-large": readingLarge = true
        case "rws-large-end": readingLarge = false
        case "rws-end":
            guard words.count == 5, var file = finishFile() else { throw malformed("a file end marker out of place") }
            file.added = Int(words[1]) ?? 0
            file.deleted = Int(words[2]) ?? 0
            file.omittedLines = Int(words[3]) ?? 0
            file.omittedBytes = Int(words[4]) ?? 0
            file.isTooLarge = file.isBinary && large.contains(file.path.bytes)
            files.append(file)
        case "rws-done":
            isCut = words.count > 1 && words[1] == "1"
            done = true
        default: throw malformed("an unknown marker")
        }
    }

    private mutating func startFile(_ line: [UInt8]) throws {
        guard current == nil else { throw malformed("a file header before the previous file's end marker") }
        header = Header()
        parents = 1
        let isCombined = !line.starts(with: Array("diff --git ".utf8))
        if isCombined {
            let rest = Array(line.drop { $0 != UInt8(ascii: " ") }.dropFirst().drop { $0 != UInt8(ascii: " ") }.dropFirst())
            header.combinedPath = GitQuoting.unquote(rest)
            parents = 2
        } else {
            header.gitLinePaths = GitQuoting.pathsOfGitLine(Array(line.dropFirst("diff --git ".utf8.count)))
        }
        current = GitFileDiff(path: GitPath(""), change: isCombined ? .conflicted : .modified)
    }

    private mutating func headerLine(_ line: [UInt8]) throws {
        let text = String(decoding: line, as: UTF8.self)
        func value(_ prefix: String) -> [UInt8]? {
            line.starts(with: Array(prefix.utf8)) ? Array(line.dropFirst(prefix.utf8.count)) : nil
        }
        if let mode = value("old mode ") {
            current?.oldMode = String(decoding: mode, as: UTF8.self)
        } else if let mode = value("new mode ") {
            current?.newMode = String(decoding: mode, as: UTF8.self)
        } else if let mode = value("deleted file mode ") {
            current?.oldMode = String(decoding: mode, as: UTF8.self)
            current?.change = .deleted
        } else if let mode = value("new file mode ") {
            current?.newMode = String(decoding: mode, as: UTF8.self)
            current?.change = .added
        } else if let score = value("similarity index ") {
            current?.similarity = Int(String(decoding: score.dropLast(), as: UTF8.self))
        } else if let path = value("rename from ") {
            header.from = GitQuoting.unquote(path)
            current?.change = .renamed
        } else if let path = value("rename to ") {
            header.to = GitQuoting.unquote(path)
        } else if let path = value("copy from ") {
            header.from = GitQuoting.unquote(path)
            current?.change = .copied
        } else if let path = value("copy to ") {
            header.to = GitQuoting.unquote(path)
        } else if let path = value("--- ") {
            header.minus = GitQuoting.unquoteSide(path)
        } else if let path = value("+++ ") {
            header.plus = GitQuoting.unquoteSide(path)
        } else if text.hasPrefix("index ") {
            // `index a..b MODE`: the mode of a file whose mode did not change.
            let words = text.split(separator: " ")
            if words.count == 3, current?.oldMode == nil, current?.newMode == nil, current?.change == .modified {
                current?.oldMode = String(words[2])
                current?.newMode = String(words[2])
            }
        } else if text.hasPrefix("Binary files ") {
            current?.isBinary = true
        }
        // `dissimilarity index`, `mode` (combined): nothing to keep.
    }

    private mutating func startHunk(_ line: [UInt8]) throws {
        closeHunk()
        let text = String(decoding: line, as: UTF8.self)
        let marks = text.prefix { $0 == "@" }.count
        parents = max(1, marks - 1)
        let parts = text.dropFirst(marks + 1).components(separatedBy: " " + String(repeating: "@", count: marks))
        guard let ranges = parts.first else { throw malformed("a hunk header without ranges") }
        let words = ranges.split(separator: " ")
        guard let first = words.first, let last = words.last else { throw malformed("a hunk header without ranges") }
        let old = range(first.dropFirst())
        let new = range(last.dropFirst())
        let section = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
        hunk = GitHunk(oldStart: old.start, oldCount: old.count, newStart: new.start, newCount: new.count, section: section)
        oldLine = old.start
        newLine = new.start
    }

    private mutating func addLine(_ line: [UInt8]) {
        guard line.first != UInt8(ascii: "\\") else {
            hunk?.lines.append(GitDiffLine(kind: .noNewlineAtEnd, text: String(decoding: line.dropFirst(2), as: UTF8.self)))
            return
        }
        let prefix = line.prefix(parents)
        let text = String(decoding: line.dropFirst(parents), as: UTF8.self)
        if prefix.contains(UInt8(ascii: "+")) {
            hunk?.lines.append(GitDiffLine(kind: .added, text: text, newLine: newLine))
            newLine += 1
        } else if prefix.contains(UInt8(ascii: "-")) {
            hunk?.lines.append(GitDiffLine(kind: .deleted, text: text, oldLine: oldLine))
            oldLine += 1
        } else {
            hunk?.lines.append(GitDiffLine(kind: .context, text: text, oldLine: oldLine, newLine: newLine))
            oldLine += 1
            newLine += 1
        }
    }

    private mutating func closeHunk() {
        if let hunk { current?.hunks.append(hunk) }
        hunk = nil
    }

    private mutating func finishFile() -> GitFileDiff? {
        closeHunk()
        guard var file = current else { return nil }
        current = nil
        let newPath = header.to ?? header.combinedPath ?? header.plus ?? header.gitLinePaths?.new
        let oldPath = header.from ?? header.minus ?? header.gitLinePaths?.old
        file.path = GitPath(bytes: newPath ?? oldPath ?? [])
        if file.change == .renamed || file.change == .copied, let oldPath { file.originalPath = GitPath(bytes: oldPath) }
        if header.minus == nil, header.plus != nil, file.change == .modified { file.change = .added }
        return file
    }

    private static func malformed(_ reason: String) -> ReviewError {
        .malformedOutput(step: "reading the diff", reason: reason)
    }

    private func malformed(_ reason: String) -> ReviewError { Self.malformed(reason) }

    private func range(_ text: Substring) -> (start: Int, count: Int) {
        let numbers = text.split(separator: ",")
        return (Int(numbers.first ?? "0") ?? 0, numbers.count > 1 ? Int(numbers[1]) ?? 0 : 1)
    }

    /// What a file's header lines said about its paths.
    private struct Header {
        var gitLinePaths: (old: [UInt8], new: [UInt8])?
        var combinedPath: [UInt8]?
        var from: [UInt8]?
        var to: [UInt8]?
        var minus: [UInt8]?
        var plus: [UInt8]?
    }
}
