/// A line diff of two texts for showing an edit: the lines both share, then `-` old and `+` new.
enum LineDiff {
    /// `old` → `new` as unified-diff body lines (` ` same, `-` removed, `+` added), by the longest
    /// common subsequence of lines; texts too long for that show all old lines removed, all new added.
    static func unified(old: String, new: String) -> [String] {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a.count * b.count <= 250_000 else { return a.map { "-" + $0 } + b.map { "+" + $0 } }
        // common[i][j]: length of the longest common subsequence of a[i...] and b[j...].
        var common = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [String] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append(" " + a[i])
                (i, j) = (i + 1, j + 1)
            } else if j == b.count || (i < a.count && common[i + 1][j] >= common[i][j + 1]) {
                lines.append("-" + a[i])
                i += 1
            } else {
                lines.append("+" + b[j])
                j += 1
            }
        }
        return lines
    }
}
