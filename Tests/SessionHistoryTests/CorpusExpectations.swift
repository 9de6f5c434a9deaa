import SessionHistory
import Testing

/// What each real corpus file must give. Every number here was derived by
/// `scripts/derive-corpus-expectations.py`, an independent Python reading of the raw JSON
/// (json.loads per line; chain, usage and title rules re-implemented from SCHEMA-NOTES §4, §8,
/// §9), run once and pasted here. Not produced by this module.
struct CorpusExpectation: Sendable, CustomTestStringConvertible {
    let file: String
    let records: Int
    let types: [String: Int]
    let messages: Int
    let toolUses: Int
    let pairedToolUses: Int
    let otherLeaves: Int
    let usage: TokenUsage
    let responses: Int
    let title: String?
    let titleSource: TitleSource?

    var testDescription: String { file }

    /// The corpus's subagent transcripts are displayed as such (sidechain records shown).
    var isSubagentFile: Bool { file.contains("agent-") }
}

let corpusExpectations: [CorpusExpectation] = [
    CorpusExpectation(
        file: "chiphuyen__sniffly__d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl", records: 137,
        types: ["assistant": 73, "summary": 1, "user": 63], messages: 67, toolUses: 59, pairedToolUses: 58, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 114, outputTokens: 16769, cacheCreationInputTokens: 174552, cacheReadInputTokens: 3754072),
        responses: 62, title: "create a jupyter notebook file so that i can test each step of the way", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "chiphuyen__sniffly__fed8ce56-bc79-401f-a83e-af084253362f.jsonl", records: 21,
        types: ["assistant": 10, "summary": 1, "user": 10], messages: 7, toolUses: 7, pairedToolUses: 7, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 88, outputTokens: 278, cacheCreationInputTokens: 16000, cacheReadInputTokens: 44544),
        responses: 4, title: "push to github", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "d-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", records: 53,
        types: ["assistant": 28, "user": 25], messages: 11, toolUses: 13, pairedToolUses: 13, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 129, outputTokens: 3629, cacheCreationInputTokens: 47747, cacheReadInputTokens: 324259),
        responses: 20,
        title: "Examine the package.json file(s) in /path/to/Demo and any subdirectories. Focus on: 1. Dependencies (both "
            + "dependencies and devDependencies) 2. Scripts available for development, build, lint, etc. 3. V…",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", records: 438,
        types: ["assistant": 262, "summary": 1, "user": 175], messages: 11, toolUses: 11, pairedToolUses: 11, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 818, outputTokens: 51933, cacheCreationInputTokens: 137976, cacheReadInputTokens: 3647854),
        responses: 170,
        title: "Create React components for the TODO app in a components/ directory: 1. TodoItem component - displays individual "
            + "todo with checkbox, text, delete button 2. TodoList component - renders list of TodoIte…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl", records: 61,
        types: ["assistant": 22, "file-history-snapshot": 9, "progress": 11, "system": 7, "user": 12], messages: 12, toolUses: 2,
        pairedToolUses: 2, otherLeaves: 1,
        usage: TokenUsage(inputTokens: 23, outputTokens: 88, cacheCreationInputTokens: 9036, cacheReadInputTokens: 239606),
        responses: 9,
        title: "Ok, so there's isn't much to see here, mostly one idea about how to organize the work Markdown documents "
            + "generated during a Claude Code session.", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__07f2e15c-a38b-454b-9148-60edc06de401.jsonl", records: 57,
        types: ["assistant": 32, "summary": 4, "user": 21], messages: 21, toolUses: 20, pairedToolUses: 20, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 48, outputTokens: 328, cacheCreationInputTokens: 48669, cacheReadInputTokens: 691169),
        responses: 20,
        title: "Can you please update the top level index.html to contain all the token usage numbers added up and also the time "
            + "of last interaction? These are relatively new features in the transcript pages, but we…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl", records: 68,
        types: ["assistant": 32, "system": 8, "user": 28], messages: 24, toolUses: 14, pairedToolUses: 14, otherLeaves: 2,
        usage: TokenUsage(inputTokens: 138, outputTokens: 5057, cacheCreationInputTokens: 85100, cacheReadInputTokens: 348985),
        responses: 15,
        title: "Hey Claude, I'd like your help with refactoring the timeline filtering so that we hide the group instead of all "
            + "items that belong to a group as that would also collapse the row in the timeline. Find `…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__12a546d1-83a7-49a6-abba-5400db340b43.jsonl", records: 113,
        types: ["assistant": 68, "system": 4, "user": 41], messages: 39, toolUses: 35, pairedToolUses: 35, otherLeaves: 1,
        usage: TokenUsage(inputTokens: 206, outputTokens: 6064, cacheCreationInputTokens: 29126, cacheReadInputTokens: 1167066),
        responses: 36, title: "<bash-input>uv run pytest -m browser -v</bash-input>", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl", records: 6,
        types: ["assistant": 2, "progress": 1, "queue-operation": 1, "user": 2], messages: 3, toolUses: 1, pairedToolUses: 1,
        otherLeaves: 0,
        usage: TokenUsage(inputTokens: 2, outputTokens: 2, cacheCreationInputTokens: 7996, cacheReadInputTokens: 36009),
        responses: 2,
        title: "Use the Explore task in sub-agents with Haiku model to give me an overview of the code organization in the "
            + "/workspace/claude-code-log project", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__29ccd257-68b1-427f-ae5f-6524b7cb6f20__subagents__agent-a2271d1.jsonl",
        records: 59, types: ["assistant": 34, "user": 25], messages: 11, toolUses: 24, pairedToolUses: 24, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 4466, outputTokens: 18, cacheCreationInputTokens: 42768, cacheReadInputTokens: 236968),
        responses: 10,
        title: "Give me a comprehensive overview of the code organization in the /workspace/claude-code-log project. Explore the "
            + "directory structure, identify main components, understand the purpose of different fold…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__2c5941bd-b9de-41d6-9414-221d175776f7.jsonl", records: 0, types: [:],
        messages: 0, toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 0,
        title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__3680252d-d4e3-4416-bddd-8f5b5b4fdb7f.jsonl", records: 6,
        types: ["summary": 3, "user": 3], messages: 2, toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 0,
        title: "/model", titleSource: .command),
    CorpusExpectation(
        file: "daaain__claude-code-log__37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl", records: 346,
        types: ["assistant": 177, "summary": 6, "system": 54, "user": 109], messages: 113, toolUses: 101, pairedToolUses: 101,
        otherLeaves: 0,
        usage: TokenUsage(inputTokens: 332, outputTokens: 2573, cacheCreationInputTokens: 169949, cacheReadInputTokens: 7243488),
        responses: 105,
        title: "Hey Claude, please have a look at the git diff of claude_code_log/renderer.py and explain what does "
            + "_get_enhanced_session_navigation and _generate_html_with_navigation do", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl", records: 1,
        types: ["summary": 1], messages: 0, toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 0,
        title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl", records: 211,
        types: ["assistant": 120, "queue-operation": 12, "user": 79], messages: 43, toolUses: 71, pairedToolUses: 71,
        otherLeaves: 0,
        usage: TokenUsage(inputTokens: 1804, outputTokens: 20797, cacheCreationInputTokens: 182937, cacheReadInputTokens: 1502915),
        responses: 36, title: "/init", titleSource: .command),
    CorpusExpectation(
        file: "daaain__claude-code-log__9e953218-585f-4692-89df-9e0747a31c68.jsonl", records: 248,
        types: ["assistant": 145, "user": 103], messages: 112, toolUses: 92, pairedToolUses: 92, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 419, outputTokens: 3195, cacheCreationInputTokens: 330302, cacheReadInputTokens: 4775345),
        responses: 101,
        title: "I have @public/tokenizer.css, @public/tokenizer.html and @public/tokenizer.html running on my website, but the "
            + "deep link in the website's repo is a bit awkward and not very inviting for other people t…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl", records: 316,
        types: ["assistant": 177, "file-history-snapshot": 15, "summary": 2, "user": 122], messages: 115, toolUses: 108,
        pairedToolUses: 108, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 2250, outputTokens: 31430, cacheCreationInputTokens: 175207, cacheReadInputTokens: 8505166),
        responses: 103,
        title: "It's been a while - I see that I have pending changes, examine them, add and commit (i.e., including unknown " + "files).",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__a95fea4a-b88a-4e49-ac07-4cc323d8700c.jsonl", records: 4,
        types: ["file-history-snapshot": 4], messages: 0, toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 0,
        title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__agent-5e37fdd5.jsonl", records: 1, types: ["assistant": 1], messages: 1,
        toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 1213, outputTokens: 7, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 1,
        title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__agent-c8d9b115.jsonl", records: 35, types: ["assistant": 20, "user": 15],
        messages: 6, toolUses: 15, pairedToolUses: 15, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 869, outputTokens: 840, cacheCreationInputTokens: 41483, cacheReadInputTokens: 124362),
        responses: 6, title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__agent-ea02459f.jsonl", records: 33, types: ["assistant": 18, "user": 15],
        messages: 6, toolUses: 14, pairedToolUses: 14, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 3289, outputTokens: 1799, cacheCreationInputTokens: 36957, cacheReadInputTokens: 76673),
        responses: 5,
        title: "I need to understand the current project structure to help make it installable as a library with uv. Please:  1. "
            + "Check if there's already a pyproject.toml file and examine its contents 2. Look at the…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", records: 292,
        types: ["assistant": 200, "queue-operation": 10, "user": 82], messages: 86, toolUses: 76, pairedToolUses: 76,
        otherLeaves: 0,
        usage: TokenUsage(inputTokens: 735, outputTokens: 23714, cacheCreationInputTokens: 152097, cacheReadInputTokens: 3483153),
        responses: 80, title: "How can I make this possible to install as a library with `uv` so I can run from any directory?",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__debug_image_message.jsonl", records: 1, types: ["user": 1], messages: 1,
        toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0), responses: 0,
        title: nil, titleSource: nil),
    CorpusExpectation(
        file: "daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl", records: 180,
        types: [
            "assistant": 62, "attachment": 49, "file-history-snapshot": 3, "last-prompt": 7, "permission-mode": 8, "system": 6,
            "user": 45,
        ], messages: 21, toolUses: 40, pairedToolUses: 40, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 1308, outputTokens: 22901, cacheCreationInputTokens: 102189, cacheReadInputTokens: 728660),
        responses: 17, title: "Well, the subagents seem to be either stuck or done... can you check?", titleSource: .lastPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1__subagents__agent-a4ca7529859c158c2.js" + "onl", records: 56,
        types: ["assistant": 31, "user": 25], messages: 21, toolUses: 24, pairedToolUses: 24, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 445, outputTokens: 7923, cacheCreationInputTokens: 113769, cacheReadInputTokens: 615694),
        responses: 20,
        title: "You are **alice**, a teammate in an experimental collaboration. The parent repo is a small experiment in "
            + "`experiments/worktrees` (main branch of the experiment is `master`, not `main`). You have been…",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl", records: 103,
        types: ["assistant": 59, "user": 44], messages: 45, toolUses: 35, pairedToolUses: 35, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 149, outputTokens: 3130, cacheCreationInputTokens: 126282, cacheReadInputTokens: 1227972),
        responses: 37,
        title: "Can you please read @public/tokenizer.css, @public/tokenizer.js, @public/tokenizer.html and do a thorough code "
            + "review with ultrathink and while keeping it simple and dependency free (except for transf…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "daaain__claude-code-log__fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl", records: 111,
        types: ["assistant": 59, "summary": 15, "user": 37], messages: 38, toolUses: 32, pairedToolUses: 32, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 279, outputTokens: 2201, cacheCreationInputTokens: 83966, cacheReadInputTokens: 1164952),
        responses: 34,
        title: "Hey Claude, can you please add a Github Action to run tests and linting? You can test it with `act`.",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "marot__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl", records: 1863,
        types: ["assistant": 299, "file-history-snapshot": 28, "progress": 1333, "queue-operation": 6, "system": 5, "user": 192],
        messages: 158, toolUses: 186, pairedToolUses: 186, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 180, outputTokens: 38899, cacheCreationInputTokens: 349474, cacheReadInputTokens: 14771617),
        responses: 152, title: "Implement spotter-gqc", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "marot__spotter__258c7280-ae70-4798-800f-63464d01a85d__subagents__agent-a881341.jsonl", records: 10,
        types: ["assistant": 5, "progress": 2, "user": 3], messages: 4, toolUses: 2, pairedToolUses: 2, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 15, outputTokens: 3, cacheCreationInputTokens: 42176, cacheReadInputTokens: 34159),
        responses: 3,
        title: "What is the output contract for Claude Code hooks, specifically for SessionStart hooks? I need to know: 1. What "
            + "JSON format can a SessionStart hook output to stdout to inject context? 2. What fields a…", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "marot__spotter__258c7280-ae70-4798-800f-63464d01a85d__subagents__agent-acompact-fffbd0.jsonl",
        records: 4, types: ["assistant": 1, "user": 3], messages: 2, toolUses: 0, pairedToolUses: 0, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 3, outputTokens: 6, cacheCreationInputTokens: 2487, cacheReadInputTokens: 166758),
        responses: 1,
        title: "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's "
            + "explicit requests and your previous actions. This summary should be thorough in capturing tec…",
        titleSource: .firstPrompt),
    CorpusExpectation(
        file: "marot__spotter__short.jsonl", records: 15,
        types: ["assistant": 5, "file-history-snapshot": 1, "progress": 3, "system": 2, "user": 4], messages: 3, toolUses: 2,
        pairedToolUses: 2, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 3, outputTokens: 13, cacheCreationInputTokens: 13835, cacheReadInputTokens: 11515),
        responses: 1, title: "mix phx.server doesnt seem to start", titleSource: .firstPrompt),
    CorpusExpectation(
        file: "marot__spotter__tool_heavy.jsonl", records: 39,
        types: ["assistant": 9, "file-history-snapshot": 3, "progress": 10, "queue-operation": 2, "system": 2, "user": 13],
        messages: 10, toolUses: 6, pairedToolUses: 6, otherLeaves: 0,
        usage: TokenUsage(inputTokens: 54, outputTokens: 212, cacheCreationInputTokens: 17696, cacheReadInputTokens: 88231),
        responses: 4, title: "start phoenix in background", titleSource: .firstPrompt),
]
