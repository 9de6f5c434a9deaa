import Testing

@testable import SSHClient

@Suite struct CursorKeyModeTrackerTests {
    private func mode(after chunks: [String], from start: [String] = []) -> CursorKeyMode {
        var tracker = TerminalModeTracker()
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
            var tracker = TerminalModeTracker()
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

@Suite struct TerminalModeStateTests {
    private func modes(after chunks: [String]) -> TerminalModeState {
        var tracker = TerminalModeTracker()
        for chunk in chunks { tracker.scan(Array(chunk.utf8)) }
        return tracker.modes
    }

    private func restoring(after chunks: [String]) -> String {
        String(decoding: modes(after: chunks).restoringSequence, as: UTF8.self)
    }

    @Test func aProgramThatSwitchesNothingLeavesNothingToRestore() {
        #expect(modes(after: ["plain text\r\n", "\u{1B}[31mred\u{1B}[0m", "\u{1B}[2J\u{1B}[H"]).isDefault)
        #expect(restoring(after: ["\u{1B}[?1049h\u{1B}[?1049l"]) == "")
    }

    /// What tmux leaves on the terminal when its client is killed instead of detaching.
    @Test func aMultiplexerLeftAttachedIsUndoneScrollRegionFirstThenTheAlternateScreen() {
        let tmux = [
            "\u{1B}[?1049h\u{1B}[H\u{1B}[2J", "\u{1B}[?1h\u{1B}=", "\u{1B}[?25l", "\u{1B}[1;23r", "\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h",
        ]
        #expect(
            restoring(after: tmux) == "\u{1B}[r\u{1B}[?1049l\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?2004l\u{1B}[?1l\u{1B}>\u{1B}[?25h\u{1B}[0m")
    }

    @Test func modesSwitchedBackAreNotRestoredAgain() {
        #expect(restoring(after: ["\u{1B}[?1049h\u{1B}[1;20r\u{1B}[?25l", "\u{1B}[r\u{1B}[?25h"]) == "\u{1B}[?1049l\u{1B}[0m")
        #expect(restoring(after: ["\u{1B}=\u{1B}[?2004h", "\u{1B}>"]) == "\u{1B}[?2004l\u{1B}[0m")
    }

    @Test func fullAndSoftResetsReturnToDefaults() {
        #expect(modes(after: ["\u{1B}[?1049;1000;1h\u{1B}[5;9r\u{1B}=", "\u{1B}c"]).isDefault)
        let soft = modes(after: ["\u{1B}[?1049h\u{1B}[?1h\u{1B}[5;9r\u{1B}=\u{1B}[?25l", "\u{1B}[!p"])
        #expect(
            soft.privateModesOn == [1049] && soft.cursorKeys == .normal && !soft.applicationKeypad && !soft.cursorHidden
                && !soft.scrollRegionSet)
    }

    @Test func aSplitSequenceStillCounts() {
        let sequence = Array("x\u{1B}[?1049;2004hy".utf8)
        for cut in 0...sequence.count {
            var tracker = TerminalModeTracker()
            tracker.scan(Array(sequence[..<cut]))
            tracker.scan(Array(sequence[cut...]))
            #expect(tracker.modes.privateModesOn == [1049, 2004], "cut at \(cut)")
        }
    }
}

@Suite struct TerminalModesTests {
    @Test func encodingIsOpcodeThenBigEndianValueEndingWithZero() {
        #expect(TerminalModes([(.verase, 127), (.outputSpeed, 38400)]).encoded == [3, 0, 0, 0, 127, 129, 0, 0, 0x96, 0, 0])
        #expect(TerminalModes.serverDefaults.encoded == [0])
    }
}
