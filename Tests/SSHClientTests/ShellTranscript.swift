import Foundation
import SSHClient
import Synchronization

/// Collects a shell's output in the background so tests can wait for text with a deadline.
final class ShellTranscript: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let expected: String
        let transcript: String
        var description: String { "did not see \(expected.debugDescription) in time; the terminal showed: \(transcript.debugDescription)" }
    }

    private struct State {
        var bytes: [UInt8] = []
        /// Where the next ``wait(for:within:)`` starts looking.
        var cursor = 0
        var ended = false
    }

    private let state = Mutex(State())

    init(_ shell: InteractiveShell) {
        Task { [self] in
            do {
                for try await chunk in shell.output { state.withLock { $0.bytes += chunk } }
            } catch {}
            state.withLock { $0.ended = true }
        }
    }

    /// Everything seen so far, decoded as UTF-8.
    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Whether the output has ended.
    var ended: Bool { state.withLock { $0.ended } }

    /// Waits until the output ends; returns all of it.
    func waitForEnd(within limit: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while !ended {
            guard ContinuousClock.now < deadline else { throw Timeout(expected: "the end of the output", transcript: text) }
            try await Task.sleep(for: .milliseconds(10))
        }
        return text
    }

    /// Waits until `expected` appears after the previous match; returns the bytes between them.
    @discardableResult
    func wait(for expected: String, within limit: Duration = .seconds(5)) async throws -> [UInt8] {
        let needle = Array(expected.utf8)
        let deadline = ContinuousClock.now + limit
        while true {
            let found = state.withLock { state -> [UInt8]? in
                guard let range = state.bytes[state.cursor...].firstRange(of: needle) else { return nil }
                defer { state.cursor = range.upperBound }
                return Array(state.bytes[state.cursor..<range.lowerBound])
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else { throw Timeout(expected: expected, transcript: text) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// A shell with a prompt tests can recognise, and its transcript.
struct PromptedShell {
    /// The prompt; the command that sets it splits the word so its echo never looks like a prompt.
    static let prompt = "rws> "
    let shell: InteractiveShell
    let transcript: ShellTranscript

    static func open(_ connection: SSHConnection, columns: Int = 200, rows: Int = 50) async throws -> PromptedShell {
        let shell = try await connection.openShell(ShellConfiguration(columns: columns, rows: rows))
        let prompted = PromptedShell(shell: shell, transcript: ShellTranscript(shell))
        // Bracketed paste would wrap every command's output in ESC [ ? 2004 l/h: plain lines read better.
        try await shell.send("bind 'set enable-bracketed-paste off'; PS1='rws''> '\r")
        try await prompted.transcript.wait(for: prompt)
        return prompted
    }

    /// Types `line` and Enter, then waits for the next prompt; returns what was shown before it.
    @discardableResult
    func run(_ line: String, within limit: Duration = .seconds(5)) async throws -> String {
        try await shell.send(line)
        try await shell.send(.enter)
        return String(decoding: try await transcript.wait(for: Self.prompt, within: limit), as: UTF8.self)
    }
}
