import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient
import SessionHistory

/// `rws ask --persist` and the commands over detached conversations: `--attach`, `--stop`,
/// `--list-detached`.
struct AskDetachedOptions: ParsableArguments {
    @Flag(name: .long, help: "Keep Claude Code running on the box when the link drops; rws reconnects and shows what it missed, once.")
    var persist = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --persist: end Claude Code on the box after this long with no client attached (default 30m).", valueName: "duration"))
    var idle: DurationArgument?

    @Option(name: .long, help: ArgumentHelp("Follow a conversation started with --persist, taking it over.", valueName: "id"))
    var attach: String?

    @Option(name: .long, help: ArgumentHelp("Stop a conversation started with --persist (checked on the box).", valueName: "id"))
    var stop: String?

    @Flag(name: .long, help: "List the conversations started with --persist that are on the box.")
    var listDetached = false

    /// Whether one of `--attach`, `--stop`, `--list-detached` replaces asking.
    var isManaging: Bool { attach != nil || stop != nil || listDetached }

    func validate(words: [String]) throws {
        let managing = [attach.map { _ in "--attach" }, stop.map { _ in "--stop" }, listDetached ? "--list-detached" : nil].compactMap {
            $0
        }
        if managing.count > 1 { throw ValidationError("\(managing.joined(separator: " and ")) exclude each other") }
        if let given = managing.first {
            if persist { throw ValidationError("\(given) and --persist exclude each other") }
            if !words.isEmpty { throw ValidationError("\(given) takes no PROJECT or PROMPT") }
        }
        if idle != nil, !persist { throw ValidationError("--idle goes with --persist") }
    }

    /// The policy `--persist` asks for.
    var policy: ClaudeDetachedPolicy? {
        persist ? ClaudeDetachedPolicy(idleTimeout: idle?.duration ?? .seconds(30 * 60)) : nil
    }

    /// A connection that comes back after a lost link, for a detached conversation.
    var reconnect: ReconnectPolicy? { persist || attach != nil ? ReconnectPolicy(waitForConnection: .seconds(300)) : nil }

    /// Says the id of a detached conversation, which is what reaches it again: with --json as the
    /// first line, `{"type":"detached","conversation_id":ID}`.
    static func announce(_ conversation: ClaudeConversation, json: Bool, indicator: WaitingIndicator) {
        guard let id = conversation.detachedID else { return }
        if json {
            let line = JSONValue.object(JSONObject([JSONMember("type", .string("detached")), JSONMember("conversation_id", .string(id))]))
            return Terminal.out(JSONWriter.string(from: line) + "\n")
        }
        indicator.print(endsMidLine: false) { Terminal.err("rws: conversation \(id) runs detached on the box (rws ask --attach \(id))\n") }
    }

    /// After `error`, returns the error to report: a conversation that lost its link for good is
    /// left running on the box (exit 255, the message says how to come back), one taken over is
    /// left to the other client; any other is stopped.
    static func leave(_ conversation: ClaudeConversation, after error: Error) async -> Error {
        switch error as? ClaudeConversationError {
        case .detachedLinkLost?:
            await conversation.detach()
            return CLIError.failed(String(describing: error), code: RWSExitCode.connectionFailed)
        case .takenOver?:
            await conversation.detach()
            return error
        default:
            await conversation.stop()
            return error
        }
    }

    func run(connection: ConnectionOptions, json: Bool, thinking: Bool) async throws {
        try await runReportingErrors(json: json) {
            try await connection.withConnection(reconnect: reconnect) { ssh in
                if let id = stop {
                    try await ClaudeConversation.stopDetached(id, on: ssh)
                    if !json { Terminal.err("rws: stopped conversation \(id); none of its processes is left on the box\n") }
                    return 0
                }
                if let id = attach { return try await follow(id, on: ssh, json: json, thinking: thinking) }
                let conversations = try await ClaudeConversation.listDetached(on: ssh)
                if json {
                    Terminal.out(JSONWriter.string(from: .array(conversations.map(Self.json))) + "\n")
                } else if conversations.isEmpty {
                    Terminal.err("no detached conversations on \(ssh.configuration.host)\n")
                }
                for conversation in conversations where !json {
                    Terminal.out("\(conversation.id)\t\(conversation.state.rawValue)\t\((conversation.directory ?? "-").safeLine)\n")
                }
                return 0
            }
        }
    }

    /// `--attach ID`: everything the conversation did, then its running turn to the result; then it is stopped.
    private func follow(_ id: String, on ssh: SSHConnection, json: Bool, thinking: Bool) async throws -> Int32 {
        let indicator = WaitingIndicator(enabled: !json && Terminal.isTTY(STDERR_FILENO))
        defer { indicator.stop() }
        let (conversation, events) = try await ClaudeConversation.attach(id, on: ssh)
        let ending = EndingSignal()
        let question = TerminalQuestion()
        let interrupts = AskInterrupts(conversation: conversation, question: question, quiet: json, indicator: indicator, ending: ending)
        defer { interrupts.remove() }
        let printer = AskPrinter(json: json, showThinking: thinking, indicator: indicator)
        let turn = AskTurn(
            conversation: conversation, printer: printer, interactive: Terminal.isTTY(STDIN_FILENO), question: question,
            standingGrants: ClaudeStandingGrants(connection: ssh))
        do {
            let code = try await turn.follow(events)
            await conversation.stop()
            return ending.number.map { 128 + $0 } ?? code
        } catch {
            throw ending.reporting(await Self.leave(conversation, after: error))
        }
    }

    static func json(_ conversation: ClaudeDetachedConversation) -> JSONValue {
        .object(
            JSONObject([
                JSONMember("id", .string(conversation.id)), JSONMember("state", .string(conversation.state.rawValue)),
                JSONMember("directory", conversation.directory.map(JSONValue.string) ?? .null),
            ]))
    }
}
