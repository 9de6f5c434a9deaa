@testable import SSHClient
import Testing

@Suite struct CursorKeyModeTrackerTests {
    private func mode(after chunks: [String], from start: [String] = []) -> CursorKeyMode {
        var tracker = CursorKeyModeTracker()
        for chunk in start + chunks { tracker.scan(Array(chunk.utf8)) }
        return tracker.mode
    }

    @Test func setAndResetOfMode1SwitchTheMode() {
        #expect(mode(after: ["\u{1B}[?1h"]) == .application)
        #expect(mode(after: ["\u{1B}[?1h", "text", "\u{1B}[?1l"]) == .normal)
    }

    @Test func theSequenceIsSeenWhereverAChunkBoundaryFalls() {
        let sequence = Array("ab\u{1B}[?1hcd".utf8)
        for cut in 0...sequence.count {
            var tracker = CursorKeyModeTracker()
            tracker.scan(Array(sequence[..<cut]))
            tracker.scan(Array(sequence[cut...]))
            #expect(tracker.mode == .application, "cut at \(cut)")
        }
    }

    @Test func mode1AmongSeveralParametersCounts() {
        #expect(mode(after: ["\u{1B}[?1049;1h"]) == .application)
        #expect(mode(after: ["\u{1B}[?25;1;1049l"], from: ["\u{1B}[?1h"]) == .normal)
    }

    @Test func otherModesAndNonPrivateSequencesDoNotCount() {
        #expect(mode(after: ["\u{1B}[?2004h", "\u{1B}[?12h", "\u{1B}[?10h", "\u{1B}[1h", "\u{1B}[?11h"]) == .normal)
        #expect(mode(after: ["\u{1B}[?2004l", "\u{1B}[1l", "\u{1B}[31m"], from: ["\u{1B}[?1h"]) == .application)
    }

    @Test func resetsAndAbortedSequences() {
        #expect(mode(after: ["\u{1B}c"], from: ["\u{1B}[?1h"]) == .normal)
        #expect(mode(after: ["\u{1B}[!p"], from: ["\u{1B}[?1h"]) == .normal)
        #expect(mode(after: ["\u{1B}[?1\u{18}h"]) == .normal)
        #expect(mode(after: ["\u{1B}[?\u{1B}[?1h"]) == .application)
        #expect(mode(after: ["\u{1B}[?\r\n1h"]) == .application)  // C0 controls inside a sequence do not end it
    }
}

@Suite struct TerminalModesTests {
    @Test func encodingIsOpcodeThenBigEndianValueEndingWithZero() {
        #expect(TerminalModes([(.verase, 127), (.outputSpeed, 38400)]).encoded == [3, 0, 0, 0, 127, 129, 0, 0, 0x96, 0, 0])
        #expect(TerminalModes.serverDefaults.encoded == [0])
    }
}
