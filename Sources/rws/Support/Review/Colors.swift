import Foundation

/// ANSI colours for output to a terminal; none on a pipe, with `NO_COLOR` set, or for `TERM=dumb`.
struct Colors {
    let enabled: Bool

    /// Colours for standard output, as the environment allows.
    static func forStandardOutput(environment: [String: String] = ProcessEnvironment.current) -> Colors {
        Colors(
            enabled: Terminal.isTTY(STDOUT_FILENO) && environment["NO_COLOR"].map(\.isEmpty) != false
                && environment["TERM"] != "dumb")
    }

    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func cyan(_ text: String) -> String { paint(text, "36") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
