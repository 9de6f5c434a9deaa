import Testing

@testable import rws

/// The `~` escapes on keyboard input, chunk by chunk: OpenSSH's rules for what is typed, and
/// what the terminal sends by itself (replies, mouse and focus reports) not counted as typing.
@Suite struct EscapeFilterTests {
    /// Feeds `chunks` one after the other; what was forwarded, and whether `~.` was seen.
    private func feed(_ chunks: [String]) -> (forwarded: String, disconnected: Bool) {
        var filter = EscapeFilter()
        var forwarded: [UInt8] = []
        for chunk in chunks {
            let outcome = filter.feed(Array(chunk.utf8))
            forwarded += outcome.forward
            if outcome.disconnect { return (String(decoding: forwarded, as: UTF8.self), true) }
        }
        return (String(decoding: forwarded, as: UTF8.self), false)
    }

    @Test func tildeDotDisconnectsAtTheStartAndAfterEnterOnly() {
        #expect(feed(["~."]) == ("", true))
        #expect(feed(["ls\r", "~", "."]) == ("ls\r", true))
        #expect(feed(["ls\n~."]) == ("ls\n", true))
        #expect(feed(["ls ~."]) == ("ls ~.", false))
        #expect(feed(["~~.", "\r~x"]) == ("~.\r~x", false))
    }

    @Test func keysThatSendSequencesCountAsTypingAsInOpenSSH() {
        for key in ["\u{1B}[A", "\u{1B}OP", "\u{1B}[2~", "\u{1B}x", "\u{1B}", "\u{1B}[1;2R", "\u{1B}[200~pasted\u{1B}[201~"] {
            #expect(feed(["\r", key, "~."]) == ("\r" + key + "~.", false), "\(key.debugDescription)")
        }
    }

    @Test func repliesAndReportsBetweenEnterAndTildeDotDoNotCountAsTyping() {
        let reports = [
            "\u{1B}[?1;2c", "\u{1B}[>0;95;0c", "\u{1B}[?5u", "\u{1B}[?1;2$y", "\u{1B}[?0n", "\u{1B}[I", "\u{1B}[O",
            "\u{1B}[<35;10;5M", "\u{1B}[<0;10;5m", "\u{1B}[M !!", "\u{1B}]11;rgb:0000/0000/0000\u{07}",
            "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\", "\u{1B}P>|tmux 3.3a\u{1B}\\",
        ]
        for report in reports {
            #expect(feed(["\r", report, "~."]) == ("\r" + report, true), "\(report.debugDescription)")
            // In pieces across reads, as a slow link delivers them.
            #expect(feed(["\r"] + report.map { String($0) } + ["~", "."]) == ("\r" + report, true), "\(report.debugDescription)")
            // A report does not make a line start where typing had ended one.
            #expect(feed(["ls", report, "~."]) == ("ls" + report + "~.", false), "\(report.debugDescription)")
        }
    }

    @Test func aSequenceLeftUnfinishedNeverSwallowsTheEnterAfterIt() {
        #expect(feed(["\u{1B}]", "\r", "~."]) == ("\u{1B}]\r", true))
        #expect(feed(["\u{1B}[12", "\r~."]) == ("\u{1B}[12\r", true))
        #expect(feed(["\u{1B}", "\r", "~."]) == ("\u{1B}\r", true))
    }
}
