/// Finds the PID line that the command wrapper prints first on stdout, and hides it from the caller.
///
/// libssh2 1.10 cannot send signals, so stopping a command means `kill` over a second channel,
/// which needs the PID: ``StoppableCommand`` makes the shell print it, as a session leader.
struct ProcessIDReader {
    private static let marker = Array("rws-pid:".utf8)
    /// Lines that shell start-up files print before the marker pass through, up to this much.
    private static let searchLimit = 64 * 1024

    private(set) var pid: Int?
    private(set) var isSearching = true
    private var pending: [UInt8] = []

    /// Takes stdout bytes; returns the ones that belong to the caller.
    mutating func consume(_ bytes: [UInt8]) -> [UInt8] {
        guard isSearching else { return bytes }
        pending.append(contentsOf: bytes)
        var passThrough: [UInt8] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[..<newline]
            if let found = Self.parse(line) {
                pid = found
                isSearching = false
                passThrough.append(contentsOf: pending[(newline + 1)...])
                pending = []
                return passThrough
            }
            passThrough.append(contentsOf: pending[...newline])
            pending.removeSubrange(...newline)
        }
        if pending.count + passThrough.count > Self.searchLimit {
            isSearching = false
            passThrough.append(contentsOf: pending)
            pending = []
        }
        return passThrough
    }

    /// Whatever is still held back when the output ends.
    mutating func flush() -> [UInt8] {
        isSearching = false
        defer { pending = [] }
        return pending
    }

    private static func parse(_ line: ArraySlice<UInt8>) -> Int? {
        guard line.starts(with: marker) else { return nil }
        // On a PTY the terminal turns the newline into CR NL.
        var digits = line.dropFirst(marker.count)
        if digits.last == UInt8(ascii: "\r") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count < 10, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
