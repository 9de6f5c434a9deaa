import RemoteWorkspace

/// The answers rws offers at a permission question (`rws ask`, `rws watch`): yes this once, no,
/// `a` for the narrowest standing grant, or the number of any one grant. Every grant is listed in
/// plain words with where it is kept, so an answer grants exactly one thing that was shown, and a
/// mode change only when it is chosen by its number.
struct PermissionChoices {
    /// What an answer meant.
    enum Answer: Equatable {
        case yes
        case no
        case grant(ClaudePermissionGrant)
        /// Not one of the choices: ask again, send nothing.
        case invalid
    }

    let grants: [ClaudePermissionGrant]
    /// The index of the grant `a` takes, if any.
    let narrowest: Int?

    init(_ grants: [ClaudePermissionGrant]) {
        self.grants = grants
        narrowest = ClaudePermissionGrant.narrowest(of: grants).flatMap { grants.firstIndex(of: $0) }
    }

    /// The grant lines shown above the question, one per grant.
    var lines: String {
        guard !grants.isEmpty else { return "" }
        var text = "  To allow more than this call, answer with one of these (each grants that and nothing else):\n"
        for (index, grant) in grants.enumerated() {
            let key = index == narrowest ? "[a] or [\(index + 1)]" : "[\(index + 1)]"
            text += "  \(key) \(grant.what.safeLine), kept \(grant.keptIn): \(grant.allows.safeLine)\n"
        }
        return text
    }

    /// The choices after the question: `[y]es / [a]lways / [1-3] / [N]o`.
    var choices: String {
        guard !grants.isEmpty else { return "[y]es / [N]o" }
        return "[y]es" + (narrowest == nil ? "" : " / [a]lways") + " / \(numbers) / [N]o"
    }

    /// What to say after an answer that is not one of the choices.
    var again: String {
        guard !grants.isEmpty else { return "rws: answer y (yes) or n (no); Enter is no: " }
        let always = narrowest.map { ", a (always: grant \($0 + 1))" } ?? ""
        return "rws: answer y (yes)\(always), a grant's number (\(numbers.dropFirst().dropLast())) or n (no); Enter is no: "
    }

    private var numbers: String { grants.count == 1 ? "[1]" : "[1-\(grants.count)]" }

    /// Reads a typed line.
    func answer(_ line: String) -> Answer {
        let typed = line.trimmingCharacters(in: .whitespaces).lowercased()
        switch typed {
        case "y", "yes": return .yes
        case "", "n", "no": return .no
        case "a", "always": return narrowest.map { .grant(grants[$0]) } ?? .invalid
        default:
            guard let number = Int(typed), grants.indices.contains(number - 1) else { return .invalid }
            return .grant(grants[number - 1])
        }
    }

    /// How a question asked with ``ask(_:prompt:)`` ended.
    enum Outcome: Equatable {
        case yes
        case no
        case grant(ClaudePermissionGrant)
        case interrupted
        case endOfInput
        /// Answered elsewhere while asked (``TerminalQuestion/withdraw()``).
        case withdrawn
    }

    /// Asks `prompt` until a valid answer (an invalid one is asked again with ``again``); after
    /// a grant, says what was granted and where.
    func ask(_ question: TerminalQuestion, prompt: String) async -> Outcome {
        var prompt = prompt
        while true {
            switch await question.ask(prompt) {
            case .interrupted: return .interrupted
            case .endOfInput: return .endOfInput
            case .withdrawn: return .withdrawn
            case .line(let line):
                switch answer(line) {
                case .yes: return .yes
                case .no: return .no
                case .grant(let grant):
                    Terminal.err("rws: granted: \(grant.what.safeLine), kept \(grant.keptIn)\n")
                    return .grant(grant)
                case .invalid: prompt = again
                }
            }
        }
    }
}
