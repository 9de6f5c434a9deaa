import Foundation
import RemoteWorkspace
import SessionHistory

/// Claude Code's AskUserQuestion at the terminal: each question with its numbered options, the
/// answer given as option numbers (several, comma-separated, where the question allows it) or as
/// free text, sent back as Claude Code accepts it (the input plus `answers`).
struct AskUserQuestionPrompt {
    let request: ClaudePermissionRequest
    let question: TerminalQuestion

    /// The decision carrying the answers; nil when Ctrl+C was pressed, a denial at the end of input.
    func answer() async -> ClaudePermissionDecision? {
        var answers: [JSONMember] = []
        for item in request.input["questions"]?.arrayValue ?? [] {
            let text = item["question"]?.stringValue ?? ""
            let labels = (item["options"]?.arrayValue ?? []).map { $0["label"]?.stringValue ?? "" }
            let multiple = item["multiSelect"]?.boolValue == true
            var shown = "\n\(text.safeText)\n"
            for (index, option) in (item["options"]?.arrayValue ?? []).enumerated() {
                let description = option["description"]?.stringValue.map { " — " + $0.safeLine } ?? ""
                shown += "  \(index + 1). \(labels[index].safeLine)\(description)\n"
            }
            shown += multiple ? "Numbers separated by commas, or your own answer: " : "A number, or your own answer: "
            switch await question.ask(shown) {
            case .interrupted: return nil
            case .endOfInput:
                Terminal.err("\nrws: the input ended before an answer: the question was not answered\n")
                return .deny(message: "The user could not answer (the input ended).")
            case .line(let line):
                answers.append(JSONMember(text, .string(Self.answer(line, labels: labels, multiple: multiple))))
            }
        }
        guard case .object(var input) = request.input else { return .deny(message: "The question could not be read.") }
        input.members.removeAll { $0.key == "answers" }
        input.members.append(JSONMember("answers", .object(JSONObject(answers))))
        return .allowWithInput(.object(input))
    }

    /// Option numbers become their labels; anything else is the user's own answer.
    static func answer(_ line: String, labels: [String], multiple: Bool) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let numbers = parts.compactMap { Int($0) }.filter { labels.indices.contains($0 - 1) }
        guard !parts.isEmpty, numbers.count == parts.count, multiple || numbers.count == 1 else { return trimmed }
        return numbers.map { labels[$0 - 1] }.joined(separator: ", ")
    }
}
