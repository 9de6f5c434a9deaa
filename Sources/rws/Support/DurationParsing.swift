import ArgumentParser

/// A duration on the command line: `90`, `90s`, `500ms`, `5m`, `1h`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    let duration: Duration

    init?(argument: String) {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var text = argument
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            text = String(text.dropLast(suffix.count))
            scale = factor
            break
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        duration = .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
