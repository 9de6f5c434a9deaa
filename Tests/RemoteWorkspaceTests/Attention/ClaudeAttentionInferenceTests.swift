import Foundation
import SessionHistory
import Testing

@testable import RemoteWorkspace

/// Events guessed from listings when the hooks are not installed: a change of state is reported
/// once, a tool is reported waiting only when its file stopped changing.
@Suite struct ClaudeAttentionInferenceTests {
    static func listing(_ id: String, _ activity: SessionActivity?, size: Int) -> RemoteSessionListing {
        var summary = SessionSummary(id: id, fileSize: size)
        summary.activity = activity
        summary.cwd = "/home/dev/app"
        return RemoteSessionListing(
            file: RemoteFile(path: "/p/\(id).jsonl", size: size, modified: 0), projectFolder: "-home-dev-app", summary: summary,
            subagentFiles: [], fileIdentity: "1_\(id)")
    }

    @Test func theFirstListingIsTheBaselineAndEachChangeIsReportedOnce() {
        var inference = ClaudeAttentionInference()
        #expect(inference.events(from: [Self.listing("a", .turnEnded, size: 10), Self.listing("b", .working, size: 5)]).isEmpty)
        let second = inference.events(from: [Self.listing("a", .working, size: 20), Self.listing("b", .turnEnded, size: 9)])
        #expect(second.map(\.kind) == [.promptSubmitted(prompt: ""), .finished(lastLine: "")])
        #expect(second.allSatisfy { $0.isInferred })
        #expect(inference.events(from: [Self.listing("a", .working, size: 30), Self.listing("b", .turnEnded, size: 9)]).isEmpty)
    }

    @Test func aPendingToolIsReportedOnceItsFileStopsChanging() {
        var inference = ClaudeAttentionInference()
        _ = inference.events(from: [Self.listing("a", .working, size: 10)])
        #expect(inference.events(from: [Self.listing("a", .toolPending, size: 20)]).isEmpty)
        let waiting = inference.events(from: [Self.listing("a", .toolPending, size: 20)])
        #expect(waiting.map(\.kind) == [.notification(type: "tool_pending", message: "a tool waits for permission or is still running")])
        #expect(inference.events(from: [Self.listing("a", .toolPending, size: 20)]).isEmpty)
        #expect(inference.events(from: [Self.listing("a", .failed, size: 25)]).map(\.summary) == ["the turn failed (API error)"])
    }

    @Test func aSessionThatAppearsLaterStartsFromWhatItShows() {
        var inference = ClaudeAttentionInference()
        _ = inference.events(from: [])
        #expect(inference.events(from: [Self.listing("new", .turnEnded, size: 10)]).map(\.kind) == [.finished(lastLine: "")])
    }
}
