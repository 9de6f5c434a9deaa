import Foundation
import Logging
import Platform

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
        let text = Array(
            "\(SystemCall.localTimestamp() ?? "<unknown>") \(event.level) \(label):\(pretty) [\(event.source)] \(event.message)\n".utf8)
        if let capture {
            capture.append(text, toStandardError: true)
        } else {
            Terminal.write(text, to: STDERR_FILENO)
        }
    }
}
