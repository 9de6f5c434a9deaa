import Foundation
import SessionHistory

/// `rws-bench history FILE.jsonl`: SessionHistory on one JSONL file (parse, conversation build,
/// summary, Markdown export), each the best of three timings. `scripts/bench history` builds the
/// input and prints these figures next to Python's; `scripts/bench render` runs it on a 300 MB
/// session. Output: one `name value unit` line per figure.
enum HistoryBenchmark {
    static func run(file url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let megabytes = Double(bytes.count) / 1e6

        var parsed = ParsedLines()
        let parseTime = best(3) { parsed = SessionParser.parse(bytes) }
        print("file_mb \(String(format: "%.1f", megabytes)) MB")
        print("records \(parsed.records.count) lines")
        print("bad_lines \(parsed.issues.count) lines")
        print("parse_s \(String(format: "%.3f", parseTime)) s")
        print("parse_mbps \(String(format: "%.0f", megabytes / parseTime)) MB/s")

        var conversation = Conversation()
        let buildTime = best(3) { conversation = ConversationBuilder.build(records: parsed.records) }
        print("conversation_s \(String(format: "%.3f", buildTime)) s")

        let window = SessionSummarizer.defaultWindow
        let head = Array(bytes.prefix(window)), tail = Array(bytes.suffix(window))
        let rounds = 200
        let summaryTime = clocked {
            for _ in 0..<rounds {
                _ = SessionSummarizer.summarize(fileName: url.lastPathComponent, fileSize: bytes.count, head: head, tail: tail)
            }
        }
        print("summary_ms \(String(format: "%.3f", summaryTime / Double(rounds) * 1000)) ms")

        var markdown = ""
        let markdownTime = best(3) { markdown = conversation.markdown() }
        print("markdown_s \(String(format: "%.3f", markdownTime)) s")
        print("markdown_mb \(String(format: "%.1f", Double(markdown.utf8.count) / 1e6)) MB")
    }

    /// The best of `runs` timings (the least disturbed by the other jobs on the machine).
    private static func best(_ runs: Int, _ body: () -> Void) -> Double {
        (0..<runs).map { _ in clocked(body) }.min() ?? 0
    }
}
