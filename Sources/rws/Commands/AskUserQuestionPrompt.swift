import Foundation
import RemoteWorkspace
import SessionHistory

/// Claude Code's AskUserQuestion at the terminal: each question with its numbered options, the
/// answer given as option numbers (several, comma-separated, where the question allows it) or as
/// free text, sent back as Claude Code accepts it (the input plus `answers`).
struct AskUserQuestionPrompt {
    let asked: ClaudeUserQuestions
    let question: TerminalQuestion

    /// The decision carrying the answers (a denial at the end of input), or how the question ended without one.
    func answer() async -> AskQuestionOutcome {
        var answers: [ClaudeUserAnswer] = []
        for item in asked.questions {
            var shown = "\n\(item.question.safeText)\n"
            for (index, option) in item.options.enumerated() {
                let description = option.description.map { " — " + $0.safeLine } ?? ""
                shown += "  \(index + 1). \(option.label.safeLine)\(description)\n"
            }
            shown += item.multiSelect ? "Numbers separated by commas, or your own answer: " : "A number, or your own answer: "
            var answer: ClaudeUserAnswer?
            while answer == nil {
                switch await question.ask(shown) {
                case .interrupted: return .interrupted
                case .withdrawn: return .withdrawn
                case .endOfInput:
                    Terminal.err("\nrws: the input ended before an answer: the question was not answered\n")
                    return .answered(.deny(message: "The user could not answer (the input ended)."))
                case .line(let line):
                    answer = Self.answer(line, to: item)
                    shown = Self.again(item)
                }
            }
            if let answer { answers.append(answer) }
        }
        return .answered(asked.answer(answers))
    }

    /// Option numbers (from 1) become those options; words are the user's own answer; nil for an
    /// empty line or numbers that name no option (or several where one is asked for): asked again,
    /// never sent.
    static func answer(_ line: String, to item: ClaudeUserQuestion) -> ClaudeUserAnswer? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return .text(trimmed) }
        let indexes = numbers.map { $0 - 1 }
        guard indexes.allSatisfy(item.options.indices.contains), item.multiSelect || indexes.count == 1 else { return nil }
        return .options(indexes, of: item)
    }

    /// What to say after an answer that is not one.
    static func again(_ item: ClaudeUserQuestion) -> String {
        let range = item.options.count == 1 ? "1" : "a number from 1 to \(item.options.count)"
        return item.multiSelect
            ? "rws: answer with \(range) (several separated by commas), or in your own words: "
            : "rws: answer with \(range), or in your own words: "
    }
}
