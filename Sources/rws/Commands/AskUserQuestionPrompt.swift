import Foundation
import RemoteWorkspace
import SessionHistory

/// Claude Code's AskUserQuestion at the terminal: each question with its numbered options, the
/// answer given as option numbers (several, comma-separated, where the question allows it) or as
/// free text, sent back as Claude Code accepts it (the input plus `answers`).
struct AskUserQuestionPrompt {
    let asked: ClaudeUserQuestions
    let question: TerminalQuestion

    /// The decision carrying the answers; nil when Ctrl+C was pressed, a denial at the end of input.
    func answer() async -> ClaudePermissionDecision? {
        var answers: [ClaudeUserAnswer] = []
        for item in asked.questions {
            var shown = "\n\(item.question.safeText)\n"
            for (index, option) in item.options.enumerated() {
                let description = option.description.map { " — " + $0.safeLine } ?? ""
                shown += "  \(index + 1). \(option.label.safeLine)\(description)\n"
            }
            shown += item.multiSelect ? "Numbers separated by commas, or your own answer: " : "A number, or your own answer: "
            switch await question.ask(shown) {
            case .interrupted: return nil
            case .endOfInput:
                Terminal.err("\nrws: the input ended before an answer: the question was not answered\n")
                return .deny(message: "The user could not answer (the input ended).")
            case .line(let line):
                answers.append(Self.answer(line, to: item))
            }
        }
        return asked.answer(answers)
    }

    /// Option numbers (from 1) become those options; anything else is the user's own answer.
    static func answer(_ line: String, to item: ClaudeUserQuestion) -> ClaudeUserAnswer {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let indexes = parts.compactMap { Int($0) }.map { $0 - 1 }.filter(item.options.indices.contains)
        guard !parts.isEmpty, indexes.count == parts.count, item.multiSelect || indexes.count == 1 else { return .text(trimmed) }
        return .options(indexes, of: item)
    }
}
