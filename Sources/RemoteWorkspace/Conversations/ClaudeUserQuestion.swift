import SessionHistory

/// Questions Claude Code's AskUserQuestion tool puts to the user, with the request they came in:
/// the event ``ClaudeEvent/userQuestion(_:)``, answered with
/// `conversation.respond(to: question.request, with: question.answer(...))`.
public struct ClaudeUserQuestions: Sendable, Equatable {
    /// The permission request that carries the questions (its input is the tool's input).
    public var request: ClaudePermissionRequest
    /// The questions, in the order they are to be asked.
    public var questions: [ClaudeUserQuestion]

    /// The questions of `request` when it is an AskUserQuestion call with at least one question; nil otherwise.
    public init?(_ request: ClaudePermissionRequest) {
        guard request.toolName == "AskUserQuestion", let items = request.input["questions"]?.arrayValue, !items.isEmpty else {
            return nil
        }
        self.request = request
        questions = items.map(ClaudeUserQuestion.init(json:))
    }

    /// The decision that sends `answers` back as Claude Code accepts them: the tool's input plus
    /// `"answers": {question: answer}`, where an answer is the chosen option labels joined by
    /// ", " (several only for a multi-select question) or the user's own text.
    ///
    /// - Parameter answers: One answer a question, in the order of ``questions``; missing ones are left out.
    public func answer(_ answers: [ClaudeUserAnswer]) -> ClaudePermissionDecision {
        var input = JSONObject()
        if case .object(let object) = request.input { input = object }
        input.members.removeAll { $0.key == "answers" }
        let given = zip(questions, answers).map { question, answer in JSONMember(question.question, .string(answer.text)) }
        input.members.append(JSONMember("answers", .object(JSONObject(given))))
        return .allowWithInput(.object(input))
    }
}

/// One question of AskUserQuestion.
public struct ClaudeUserQuestion: Sendable, Equatable {
    /// One option to choose.
    public struct Option: Sendable, Equatable {
        /// The option's label: what is sent back when it is chosen.
        public var label: String
        /// What the option means, when the model said.
        public var description: String?

        /// An option with this label and description.
        public init(label: String, description: String? = nil) {
            self.label = label
            self.description = description
        }
    }

    /// The question itself.
    public var question: String
    /// A short header (a chip label), when the model gave one.
    public var header: String?
    /// The options; the user may also answer in words of their own.
    public var options: [Option]
    /// Whether several options may be chosen.
    public var multiSelect: Bool

    init(json: JSONValue) {
        question = json["question"]?.stringValue ?? ""
        header = json["header"]?.stringValue
        options = (json["options"]?.arrayValue ?? []).map {
            Option(label: $0["label"]?.stringValue ?? "", description: $0["description"]?.stringValue)
        }
        multiSelect = json["multiSelect"]?.boolValue == true
    }
}

/// The answer to one ``ClaudeUserQuestion``.
public enum ClaudeUserAnswer: Sendable, Equatable {
    /// These options, by their index in ``ClaudeUserQuestion/options`` (several for a multi-select question).
    case options([Int], of: ClaudeUserQuestion)
    /// The user's own words.
    case text(String)

    /// What is sent back: the chosen labels joined by ", ", or the text.
    public var text: String {
        switch self {
        case .options(let indexes, let question):
            return indexes.filter(question.options.indices.contains).map { question.options[$0].label }.joined(separator: ", ")
        case .text(let text):
            return text
        }
    }
}
