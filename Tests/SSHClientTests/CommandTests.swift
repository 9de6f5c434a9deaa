import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct CommandTests {
    @Test(arguments: ServerKind.allCases)
    func runReturnsStdoutStderrAndExitStatus(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let result = try await connection.run("echo out; echo err >&2; exit 3")
            #expect(result.stdoutText == "out\n")
            #expect(result.stderrText == "err\n")
            #expect(result.status == .exited(3))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func exitStatusArrivingAfterEOFIsReported(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            // Closing both streams first makes EOF reach us about a second before the exit status.
            let result = try await connection.run("exec >&- 2>&-; sleep 1; exit 4")
            #expect(result.status == .exited(4))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func exitSignalIsReported(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let result = try await connection.run("kill -TERM $$")
            #expect(result.status == .signaled("TERM"))
            #expect(result.status.shellCode == 143)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func inputIsWrittenToStdinAndClosed(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let input = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000_000)
            let result = try await connection.run("wc -c", input: input)
            #expect(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "3000000")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func twentyMegabytesOnEachStreamArriveIntact(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let result = try await connection.run("seq 1 3000000 >&2 & seq 3000001 6000000; wait")
            let expectedOut = try Shell.run("/usr/bin/seq", ["3000001", "6000000"])
            let expectedErr = try Shell.run("/usr/bin/seq", ["1", "3000000"])
            #expect(result.stdout.count > 20_000_000)
            #expect(result.stderr.count > 20_000_000)
            #expect(result.stdoutText == expectedOut)
            #expect(result.stderrText == expectedErr)
            #expect(result.status == .exited(0))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func hostileStringsPassThroughQuotingByteForByte(kind: ServerKind) async throws {
        let canary = FileManager.default.temporaryDirectory.appendingPathComponent("rws-canary-\(UUID().uuidString)").path
        let hostile = [
            "it's", #"say "hi""#, "$(touch \(canary))", "`touch \(canary)`", "a\nb\r\nc", "-n", "--help",
            "back\\slash", "$HOME", "*", "~", "tab\there", "ünïcødé ☃", "; touch \(canary)", "", "'\"'\"'", "a'b'c",
        ]
        try await SharedTestServer.get(kind).withConnection { connection in
            for word in hostile {
                let result = try await connection.run(try ShellQuoting.commandLine(["printf", "%s", word]))
                #expect(result.stdout == Array(word.utf8), "word \(word.debugDescription)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: canary))
    }

    @Test(arguments: ServerKind.allCases)
    func streamYieldsOutputAsItArrivesAndTakesInput(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let command = try connection.stream("cat; echo done >&2")
            var iterator = command.output.makeAsyncIterator()
            for line in ["one\n", "two\n", "three\n"] {
                try await command.write(line)
                #expect(try await iterator.next() == .stdout(Array(line.utf8)))
            }
            try await command.closeInput()
            #expect(try await iterator.next() == .stderr(Array("done\n".utf8)))
            #expect(try await iterator.next() == nil)
            #expect(try await command.exitStatus() == .exited(0))
        }
    }
}
