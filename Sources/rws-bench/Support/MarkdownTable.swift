/// A Markdown table, built a row at a time and printed whole.
struct MarkdownTable: CustomStringConvertible {
    let header: [String]
    private(set) var rows: [[String]] = []

    init(_ header: [String]) { self.header = header }

    /// The table most benchmarks print: a step, its number of runs, and p50 / p99 / max in ms.
    init(timings rows: [(step: String, samples: [Double])], step: String = "step", runs: String = "runs") {
        self.init([step, runs, "p50 ms", "p99 ms", "max ms"])
        for row in rows { add([row.step, String(row.samples.count), percentileCells(row.samples)]) }
    }

    /// Adds a row; a cell may hold several, joined by ` | ` already.
    mutating func add(_ cells: [String]) { rows.append(cells) }

    var description: String {
        let lines = [header, header.map { _ in "---" }] + rows
        return lines.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}
