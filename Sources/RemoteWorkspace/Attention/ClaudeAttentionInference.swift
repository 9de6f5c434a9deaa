import Foundation
import SessionHistory

/// Attention events guessed from session listings, for a box without rws's hooks: each listing
/// is compared with the one before, by the state its last records show (`SessionActivity`).
///
/// Slower and less exact than the hook: a turn's end shows on the next listing; a tool that waits
/// for permission looks the same as one that runs (reported once the file has not changed for a
/// listing); nothing can be answered. Events carry no request ids.
public struct ClaudeAttentionInference: Sendable {
    private struct Seen: Sendable {
        var activity: SessionActivity?
        var size: Int
        var reported: SessionActivity?
    }

    private var sessions: [String: Seen] = [:]
    private var primed = false

    /// An inference with nothing seen yet: the first listing sets the baseline and reports nothing.
    public init() {}

    /// The events since the previous listing.
    public mutating func events(from listings: [RemoteSessionListing], at time: Date = Date()) -> [ClaudeAttentionEvent] {
        var events: [ClaudeAttentionEvent] = []
        for listing in listings {
            let summary = listing.summary
            let size = summary.fileSize
            var seen = sessions[listing.id] ?? Seen(activity: nil, size: -1, reported: nil)
            defer { sessions[listing.id] = seen }
            let before = seen
            seen.activity = summary.activity
            seen.size = size
            guard primed, let activity = summary.activity else {
                seen.reported = summary.activity
                continue
            }
            let kind: ClaudeAttentionEvent.Kind?
            switch activity {
            case .turnEnded where before.reported != .turnEnded:
                kind = .finished(lastLine: "")
            case .failed where before.reported != .failed:
                kind = .notification(type: "turn_failed", message: "the turn failed (API error)")
            case .toolPending where before.activity == .toolPending && before.size == size && before.reported != .toolPending:
                kind = .notification(type: "tool_pending", message: "a tool waits for permission or is still running")
            case .working where before.reported != .working:
                kind = .promptSubmitted(prompt: "")
            default:
                kind = nil
            }
            guard let kind else { continue }
            seen.reported = activity
            var event = ClaudeAttentionEvent(
                time: time, sessionID: listing.id, directory: summary.cwd ?? "", transcriptPath: listing.file.path, kind: kind,
                isInferred: true)
            event.permissionMode = summary.permissionMode
            events.append(event)
        }
        primed = true
        return events
    }
}
