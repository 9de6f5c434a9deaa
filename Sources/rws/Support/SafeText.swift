import SessionHistory

extension String {
    /// This one-line text from the box (a title, a name, a path) with its control and escape
    /// characters shown visibly, newlines and tabs too, so printing it cannot drive the terminal
    /// or break a table row. The one rule for all output is `TerminalText`.
    var safeLine: String { TerminalText.neutralize(self, keepingLineBreaks: false) }

    /// This multi-line text from the box (an error a remote command printed) with its control
    /// and escape characters shown visibly; newlines and tabs kept.
    var safeText: String { TerminalText.neutralize(self) }
}
