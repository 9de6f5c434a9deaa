/// Drains a channel's stdout and stderr: the one reader of commands and shells.
///
/// Both streams are read in turn on every pass, because they share one window: reading only
/// stdout stalls once the window filled with stderr (a PTY sends nothing on stderr, but its
/// stream still has to reach its end). Reading stops while the consumer has no room, which
/// stops the window adjustments: per-channel backpressure. I/O thread only.
struct ChannelOutputReader {
    private(set) var stdoutEnded = false
    private(set) var stderrEnded = false

    /// Whether both streams reached their end.
    var hasEnded: Bool { stdoutEnded && stderrEnded }

    /// What one ``drain(_:loop:hasRoom:deliver:)`` did.
    enum Drained: Equatable {
        case nothing
        case data
        /// A read failed with this libssh2 code; nothing more was read.
        case failed(Int32)
    }

    /// Reads both streams in turn, handing every chunk to `deliver`, until neither has data now,
    /// both ended, or `hasRoom` says no.
    mutating func drain(
        _ channel: LibSSH2Channel, loop: LoopContext, hasRoom: () -> Bool,
        deliver: ([UInt8], LibSSH2Channel.Stream) -> Void
    ) -> Drained {
        var drained = Drained.nothing
        while !hasEnded, hasRoom() {
            // Both streams are read before judging: a chunk on either keeps the loop going.
            let out = stdoutEnded ? .ended : read(channel, .stdout, loop: loop, deliver: deliver)
            if case .failed(let code) = out { return .failed(code) }
            let err = stderrEnded ? .ended : read(channel, .stderr, loop: loop, deliver: deliver)
            if case .failed(let code) = err { return .failed(code) }
            if out == .ended { stdoutEnded = true }
            if err == .ended { stderrEnded = true }
            guard out == .data || err == .data else { break }
            drained = .data
        }
        return drained
    }

    private enum ReadOutcome: Equatable { case data, wouldBlock, ended, failed(Int32) }

    /// One read into the loop's shared buffer, delivered at once.
    private func read(
        _ channel: LibSSH2Channel, _ stream: LibSSH2Channel.Stream, loop: LoopContext,
        deliver: ([UInt8], LibSSH2Channel.Stream) -> Void
    ) -> ReadOutcome {
        let outcome = loop.scratch.withUnsafeMutableBytes { channel.read(stream, into: $0) }
        switch outcome {
        case .done(0): return .ended
        case .done(let count):
            deliver(Array(loop.scratch[0..<count]), stream)
            return .data
        case .wouldBlock: return .wouldBlock
        case .failed(let code): return .failed(code)
        }
    }
}
