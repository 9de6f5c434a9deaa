import RemoteWorkspace
import Testing

@Suite struct GitProgressParserTests {
    @Test func carriageReturnUpdatesBecomeTypedProgressInOrder() {
        var parser = GitProgressParser()
        let text =
            "Cloning into 'x'...\nremote: Enumerating objects: 3005, done.\n"
            + "remote: Counting objects:  50% (1500/3000)\rremote: Counting objects: 100% (3000/3000), done.\n"
            + "Receiving objects:  35% (1050/3000), 1.20 MiB | 2.50 MiB/s\r"
            + "Receiving objects: 100% (3000/3000), 3.00 MiB | 2.50 MiB/s, done.\n"
            + "Resolving deltas: 100% (20/20), done.\nUpdating files:  40% (4/10)\rUpdating fi"
        var events = parser.consume(Array(text.utf8))
        events += parser.consume(Array("les: 100% (10/10), done.\n".utf8))
        #expect(events.first == .message("Cloning into 'x'..."))
        let steps = events.compactMap { if case .progress(let step) = $0 { return step } else { return nil } }
        #expect(
            steps.map(\.phase) == [
                .enumerating, .counting, .counting, .receiving, .receiving, .resolvingDeltas, .checkingOut, .checkingOut,
            ])
        #expect(steps[0] == CloneProgress(phase: .enumerating, completed: 3005, isDone: true))
        #expect(
            steps[3]
                == CloneProgress(
                    phase: .receiving, percent: 35, completed: 1050, total: 3000,
                    bytes: 1_258_291, bytesPerSecond: 2_621_440))
        #expect(steps.last == CloneProgress(phase: .checkingOut, percent: 100, completed: 10, total: 10, isDone: true))
    }

    @Test func otherLinesAreKeptForNamingTheFailure() {
        var parser = GitProgressParser()
        _ = parser.consume(Array("fatal: repository 'x' does not exist\nfatal: Could not read from remote".utf8))
        #expect(parser.finish() == [.message("fatal: Could not read from remote")])
        #expect(parser.recentMessages == ["fatal: repository 'x' does not exist", "fatal: Could not read from remote"])
        #expect(GitProgressParser.parse("Total 3 (delta 0), reused 0 (delta 0)") == nil)
    }

    @Test func checkingPhasesAreProgressNotMessages() {
        var parser = GitProgressParser()
        let updates = (0...100).map { "Checking objects: \(String(format: "%3d", $0))% (\($0)/100)\r" }.joined()
        let events = parser.consume(Array((updates + "Checking objects: 100% (100/100), done.\nChecking connectivity: 40, done.\n").utf8))
        #expect(!events.contains { if case .message = $0 { return true } else { return false } })
        #expect(events.last == .progress(CloneProgress(phase: .checkingConnectivity, completed: 40, isDone: true)))
        #expect(parser.recentMessages.isEmpty)
    }
}
