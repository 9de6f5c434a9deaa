import ArgumentParser

/// A command word that names no rws command (`rws tail --help`): an error with a suggestion,
/// found before ArgumentParser would answer it with the general help and exit 0.
struct UnknownCommand: Error, CustomStringConvertible {
    let word: String
    let path: [String]
    let suggestions: [String]

    var description: String {
        let command = (["rws"] + path).joined(separator: " ")
        let hint =
            suggestions.isEmpty
            ? "see '\(command) --help' for the commands"
            : "did you mean " + suggestions.map { "'\(command) \($0)'" }.joined(separator: " or ") + "?"
        return "'\(word)' is not a command of \(command); \(hint)"
    }

    /// Words people try for what an rws command does under another name.
    private static let synonyms: [String: [String]] = [
        "follow": ["history --follow"], "tail": ["history --follow"], "notify": ["watch"], "hook": ["hooks"],
        "ssh": ["shell"], "connect": ["shell"], "login": ["shell"], "run": ["exec"],
        "list": ["sessions", "projects"], "show": ["history"], "rm": ["delete", "rm-session"],
        "remove": ["delete", "rm-session"], "new": ["create"], "init": ["create"],
    ]

    /// The first command word of `arguments` that `root` (and the commands under it) does not
    /// know, with what it may have meant; nil when every command word is known.
    static func find(in arguments: [String], root: ParsableCommand.Type) -> UnknownCommand? {
        var command = root
        var path: [String] = []
        for word in arguments {
            guard !word.hasPrefix("-") else { return nil }
            let configuration = command.configuration
            guard configuration.defaultSubcommand == nil, !configuration.subcommands.isEmpty else { return nil }
            let names = configuration.subcommands.map { ($0.configuration.commandName ?? "", $0) }
            if path.isEmpty, word == "help" { return nil }
            guard let next = names.first(where: { $0.0 == word || $0.1.configuration.aliases.contains(word) }) else {
                return UnknownCommand(word: word, path: path, suggestions: suggestions(for: word, among: names.map(\.0)))
            }
            command = next.1
            path.append(word)
        }
        return nil
    }

    private static func suggestions(for word: String, among names: [String]) -> [String] {
        if let known = synonyms[word.lowercased()] { return known.filter { names.contains(String($0.split(separator: " ")[0])) } }
        let lowered = word.lowercased()
        let scored = names.map { ($0, distance(lowered, $0)) }.filter { $0.1 <= max(1, min(2, $0.0.count / 2)) || $0.0.hasPrefix(lowered) }
        return scored.sorted { $0.1 < $1.1 }.prefix(2).map(\.0)
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
