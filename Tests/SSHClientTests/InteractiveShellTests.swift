import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// A real bash on a real PTY behind the test sshd, typed at as a person would.
@Suite struct InteractiveShellTests {
    /// A terminal's program that flushes its terminal's output as it starts (tmux, also when a
    /// login profile starts it) discards what the kernel has not handed to the server yet: on a
    /// busy box that was the PID line, and rws held the keys typed for good.
    @Test(arguments: ServerKind.allCases)
    func keysReachAProgramThatFlushesItsTerminalWhereTheServerReadsItLate(kind: ServerKind) async throws {
        let server = try TestSSHServer.readingTerminalsLate(kind)
        defer { server.stop() }
        let socket = "rws-flush-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Shell.run("/usr/bin/tmux", ["-L", socket, "kill-server"]) }
        try await server.withConnection { connection in
            let shell = try await connection.openShell(ShellConfiguration(command: "exec tmux -L \(socket) new-session"))
            let transcript = ShellTranscript(shell)
            let channels: @Sendable () async -> String = { await connection.channelDiagnostics() }
            try await Bounded.step("typing", within: .seconds(15), context: channels) { try await shell.send("echo typed-$((3*3))\r") }
            _ = try await transcript.wait(for: "typed-9", within: .seconds(10))
            try await shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func echoHiPrintsHiAndTheWrapperPIDLineStaysHidden(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            try await session.shell.send("echo hi")
            try await session.shell.send(.enter)
            try await session.transcript.wait(for: "\r\nhi\r\n")
            try await session.transcript.wait(for: PromptedShell.prompt)
            #expect(!session.transcript.text.contains("rws-pid:"))
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func ctrlCInterruptsSleepAndThePromptReturnsWithinASecond(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            // The marker printed just before sleep starts says the command is running.
            try await session.shell.send("printf 'sle''eping\\n'; sleep 100\r")
            try await session.transcript.wait(for: "sleeping\r\n")
            let pressed = ContinuousClock.now
            try await session.shell.send(.ctrl("c"))
            try await session.transcript.wait(for: PromptedShell.prompt, within: .seconds(1))
            #expect(ContinuousClock.now - pressed < .seconds(1))
            #expect(try await session.run("echo $?").contains("130"))
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func upArrowRecallsThePreviousCommand(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            #expect(try await session.run("echo recalled-$((40+2))").contains("recalled-42\r\n"))
            try await session.shell.send(.up)
            try await session.shell.send(.enter)
            // Only running the recalled line prints the sum again.
            let second = String(decoding: try await session.transcript.wait(for: PromptedShell.prompt), as: UTF8.self)
            #expect(second.contains("recalled-42\r\n"))
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func tabCompletesAUniqueFileName(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let folder = "tab-\(UUID().uuidString.prefix(8))"
        try await server.withConnection { connection in
            _ = try await connection.run(
                "mkdir -p \(folder) && echo completed-content > \(folder)/unique-file-for-tab.txt && touch \(folder)/other")
            let session = try await PromptedShell.open(connection)
            try await session.run("cd \(folder)")
            try await session.shell.send("cat uniq")
            try await session.shell.send(.tab)
            try await session.transcript.wait(for: "ue-file-for-tab.txt")
            try await session.shell.send(.enter)
            try await session.transcript.wait(for: "\r\ncompleted-content\r\n")
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func ctrlDOnAnEmptyLineEndsTheShellWithStatusZero(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            try await session.shell.send(.ctrl("d"))
            #expect(try await session.shell.exitStatus() == .exited(0))
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func resizeIsVisibleToSttySize(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection, columns: 100, rows: 30)
            try await session.shell.send("stty size\r")
            try await session.transcript.wait(for: "\r\n30 100\r\n")
            try await session.transcript.wait(for: PromptedShell.prompt)
            try await session.shell.resize(columns: 132, rows: 43)
            // Readline redraws its prompt on SIGWINCH, so wait for the answer itself, not a prompt.
            try await session.shell.send("stty size\r")
            try await session.transcript.wait(for: "\r\n43 132\r\n")
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func staysResponsiveWhileTwentyCommandsRunOnTheSameConnection(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        try await DropbearChannelRace(server).outcome {
            try await server.withConnection { connection in
                let session = try await PromptedShell.open(connection)
                try await withThrowingTaskGroup(of: CommandResult.self) { group in
                    for index in 0..<20 {
                        group.addTask { try await connection.run("for i in 1 2 3 4 5; do echo \(index)-$i; sleep 0.2; done") }
                    }
                    // Commands queue behind MaxSessions for about two seconds: type all along.
                    for round in 0..<8 {
                        let typed = ContinuousClock.now
                        #expect(try await session.run("echo ping-$((\(round)+1000))").contains("ping-\(round + 1000)\r\n"))
                        #expect(ContinuousClock.now - typed < .milliseconds(500), "round \(round)")
                        try await Task.sleep(for: .milliseconds(150))
                    }
                    var finished = 0
                    for try await result in group {
                        #expect(result.status == .exited(0))
                        finished += 1
                    }
                    #expect(finished == 20)
                }
                try await session.shell.close()
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func closeLeavesNoProcessBehindEvenWhenTheForegroundProgramIgnoresHangUp(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.terminationGracePeriod = .milliseconds(300)
        let connection = try await SSHConnection.connect(configuration)
        do {
            let tag = "36\(Int.random(in: 10_000...99_999))"
            let session = try await PromptedShell.open(connection)
            try await session.run("sleep \(tag).1 &")
            try await session.run("nohup sleep \(tag).2 >/dev/null 2>&1 &")
            try await session.shell.send("sh -c 'trap \"\" HUP INT TERM; printf \"ign\"\"oring\\n\"; exec sleep \(tag).3'\r")
            try await session.transcript.wait(for: "ignoring\r\n")
            // Each is `sleep` once its shell (or nohup) has exec'd it, which may come after the prompt.
            let sleeps = "ps -eo args | grep -x 'sleep \(tag)\\.[123]' || true"
            var seen = ""
            let started = try await Eventually.holds {
                seen = try await connection.run(sleeps).stdoutText
                return seen.split(separator: "\n").count == 3
            }
            #expect(started, "the three sleeps before the close: \(seen)")
            let survivors = "ps -eo args | grep '[s]leep \(tag)' || true"
            try await session.shell.close()
            #expect(try await connection.run(survivors).stdoutText == "")
            if case .exited = try await session.shell.exitStatus() { Issue.record("the shell should have been killed by a signal") }
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func commandRunsInThePTYInsteadOfTheLoginShell(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let shell = try await connection.openShell(ShellConfiguration(terminalType: "vt100", command: "tty; echo \"$TERM\"; exit 5"))
            let transcript = ShellTranscript(shell)
            #expect(try await shell.exitStatus() == .exited(5))
            try await transcript.wait(for: "/dev/pts/")
            try await transcript.wait(for: "\r\nvt100\r\n")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func theInteractiveTerminalModesAreAppliedRemotely(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let shell = try await connection.openShell(ShellConfiguration(command: "stty -a"))
            let transcript = ShellTranscript(shell)
            #expect(try await shell.exitStatus() == .exited(0))
            let words = try await transcript.waitForEnd()
            for setting in ["erase = ^?;", "intr = ^C;", "-ixon", " iutf8", " icanon", " echo ", " onlcr", " icrnl"] {
                #expect(words.contains(setting), "\(setting) in \(words)")
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func impossibleSizesAndKeysAreRefusedWithAReason(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            await #expect(throws: SSHError.self) { try await connection.openShell(ShellConfiguration(columns: 0)) }
            let session = try await PromptedShell.open(connection)
            await #expect(throws: SSHError.invalidArgument("Ctrl+1 has no control character: use a letter or one of @ [ \\ ] ^ _")) {
                try await session.shell.send(.ctrl("1"))
            }
            await #expect(throws: SSHError.self) { try await session.shell.send(.function(13)) }
            await #expect(throws: SSHError.self) { try await session.shell.resize(columns: 80, rows: -1) }
            try await session.shell.close()
        }
    }
}
