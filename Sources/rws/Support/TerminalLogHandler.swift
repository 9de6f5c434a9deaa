import Foundation
import Logging

/// `-v` logging in swift-log's stream format, on the command's standard error as ``Terminal``
/// writes it: the capture of a command run in-process, or the process's stderr. The capture is
/// fixed when the logger is made, because a connection logs from its own thread, outside the
/// command's task.
struct TerminalLogHandler: LogHandler {
    let label: String
    private let capture: OutputCapture?
    var logLevel: Logger.Level = .info
    var metadata = Logger.Metadata()

    init(label: String) {
        self.label = label
        capture = Terminal.capture
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let pretty = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = Array("\(Self.timestamp()) \(event.level) \(label):\(pretty) [\(event.source)] \(event.message)\n".utf8)
        if let capture {
            capture.append(text, toStandardError: true)
        } else {
            Terminal.write(text, to: STDERR_FILENO)
        }
    }

    /// Local time as swift-log's `StreamLogHandler` writes it: `2026-11-27T04:35:12+0000`.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
