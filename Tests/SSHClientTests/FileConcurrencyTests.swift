import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileConcurrencyTests {
    @Test(arguments: ServerKind.allCases, FileRoute.allCases)
    func aListingRunsWhileAShellAndALongCommandAreActiveOnTheSameConnection(kind: ServerKind, route: FileRoute) async throws {
        let (path, expected) = try FileFixtures.bigDirectory.get()
        let release = try FileFixtures.scratchDirectory("release") + "/go"
        try await route.withConnection(kind) { connection in
            let shell = try await connection.openShell()
            var shellOutput = shell.output.makeAsyncIterator()
            try await shell.send("echo re''ady\n")
            #expect(try await Self.read(&shellOutput, until: "ready"))
            // Runs until the test creates `release`: it is active for the whole listing.
            let waitForRelease = "while [ ! -e \(try ShellQuoting.quote(release)) ]; do sleep 0.05; done; echo finished"
            let long = Task { try await connection.run(waitForRelease, timeout: .seconds(30)) }

            let entries = try await connection.listDirectory(path)
            let bytes = try await connection.readFile(path + "/f1234")
            try await shell.send("echo still inter''active\n")
            #expect(try await Self.read(&shellOutput, until: "still interactive"))

            try FileFixtures.makeFile(release, Data())
            #expect(try await long.value.stdoutText == "finished\n")
            #expect(entries.count == expected.count)
            #expect(bytes.count == 1234 % 97)
            try await shell.send(.ctrl("d"))
            #expect(try await shell.exitStatus() == .exited(0))
        }
    }

    /// Reads terminal output until `text` appears (the typed command is echoed with quotes in it,
    /// so only the program's output matches).
    private static func read(_ output: inout ShellOutput.AsyncIterator, until text: String) async throws -> Bool {
        var seen: [UInt8] = []
        while let chunk = try await output.next() {
            seen += chunk
            if String(decoding: seen, as: UTF8.self).contains(text) { return true }
        }
        return false
    }

    /// SFTP chosen outright: this test is about the one SFTP session, and the automatic choice
    /// lists by command where the link looks slow or a listing runs past its budget (four
    /// listings sharing the session on a loaded machine did, and dropbear then aborted).
    @Test(arguments: ServerKind.allCases)
    func sftpOperationsFromManyTasksShareOneSessionAndAllComplete(kind: ServerKind) async throws {
        let (path, expected) = try FileFixtures.bigDirectory.get()
        let (bigPath, bigBytes) = try FileFixtures.bigFile.get()
        try await SharedTestServer.get(kind).withConnection(fileTransport: .sftp) { connection in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        if index % 2 == 0 {
                            let entries = try await connection.listDirectory(path)
                            #expect(entries.count == expected.count)
                        } else {
                            let range = UInt64(index * 1_000_000)..<UInt64(index * 1_000_000 + 500_000)
                            let bytes = try await connection.readFile(bigPath, range: range)
                            #expect(bytes == Array(bigBytes[Int(range.lowerBound)..<Int(range.upperBound)]))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
