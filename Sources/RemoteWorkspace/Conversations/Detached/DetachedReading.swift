/// Where the reader of a detached conversation is in the conversation's `out` file on the box,
/// and what it holds back while it replays (part of ``ClaudeConversationState``).
struct DetachedReading {
    /// The conversation's id on the box.
    let id: String
    /// Bytes of `out` handled: whole lines only, so an attach replays from here, each line once.
    var offset = 0
    /// The size of `out` when the current attach began: lines before it are a replay.
    var replayEnd = 0
    /// Whether the current attach's header (`rws-answered`, `rws-attached`) is still being read.
    var inHeader = true
    /// Whether the current attach's replay is over.
    var replayed = false
    /// Attaches whose header was read (the first one is the start).
    var attaches = 0
    /// Permission request ids answered, by this client or by an earlier one.
    var answered: Set<String> = []
    /// Questions found in a replay: asked at its end unless answered meanwhile.
    var held: [ClaudeEvent] = []
    /// An attach's stream: results in the replay do not end it; the live turn's does.
    var following = false
    /// Whether nothing but finished turns was delivered (no turn runs).
    var idle = true
    /// Why the conversation ended on the box, from its end line.
    var ending: Error?
    /// Whether ``ClaudeConversation/detach()`` was called.
    var detaching = false
}
