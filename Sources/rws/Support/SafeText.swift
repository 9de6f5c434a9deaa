import SessionHistory

extension String {
    /// This one-line text from the box (a title, a name, a path) with its control and escape
    /// characters shown visibly, newlines and tabs too, so printing it cannot drive the terminal
    /// or break a table row. The one rule for all output is ``TerminalText``.
    var safeLine: String { TerminalText.neutralize(self, keepingLineBreaks: false) }
}
