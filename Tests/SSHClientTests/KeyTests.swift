import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Keys are checked where they matter: the bytes a program on the remote terminal reads.
@Suite struct KeyTests {
    @Test(arguments: ServerKind.allCases, [CursorKeyMode.normal, .application])
    func everyKeyReachesTheRemoteProgramAsTheDocumentedBytes(kind: ServerKind, mode: CursorKeyMode) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            let expected = KeyTable.rows.map { mode == .application ? $0.application : $0.normal }
            let received = try await session.remoteBytes(
                of: KeyTable.rows.map(\.key), count: expected.joined().count,
                switchingTo: mode)
            var offset = 0
            for (row, bytes) in zip(KeyTable.rows, expected) {
                let slice = Array(received.dropFirst(offset).prefix(bytes.count))
                #expect(slice == bytes, "\(row.key) in \(mode) mode")
                offset += bytes.count
            }
            #expect(received.count == offset)
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func upFollowsTheRemoteCursorKeyModeBothWays(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            #expect(try await session.remoteBytes(of: [.up], count: 3, switchingTo: .application) == [0x1B, 0x4F, 0x41])
            #expect(session.shell.cursorKeyMode == .normal)  // the reader printed ESC [ ? 1 l when done
            #expect(try await session.remoteBytes(of: [.up], count: 3, switchingTo: nil) == [0x1B, 0x5B, 0x41])
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aModeSwitchSplitAcrossTwoOutputChunksIsSeen(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            // The second half is printed only after a line is typed, so the halves cannot share a packet.
            try await session.shell.send("stty -echo; printf '\\033[?'; read x; printf '1hsp''lit\\n'; stty echo\r")
            try await session.transcript.wait(for: "\u{1B}[?")
            #expect(session.shell.cursorKeyMode == .normal)
            try await session.shell.send(.enter)
            try await session.transcript.wait(for: "1hsplit")
            #expect(session.shell.cursorKeyMode == .application)
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func lessTurnsApplicationModeOnAndOffAgainWhenItQuits(kind: ServerKind) async throws {
        try Prerequisites.require("/usr/bin/less", package: "less")
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            try await session.shell.send("seq 1 500 | less\r")
            try await session.transcript.wait(for: "\r\n2\r\n")
            #expect(session.shell.cursorKeyMode == .application)
            try await session.shell.send("q")
            try await session.transcript.wait(for: PromptedShell.prompt)
            #expect(session.shell.cursorKeyMode == .normal)
            try await session.shell.close()
        }
    }
}

extension PromptedShell {
    /// Runs a raw-mode byte dumper on the remote terminal (after switching the cursor-key mode
    /// when asked), sends `keys` once it listens, and returns the bytes it read.
    func remoteBytes(of keys: [Key], count: Int, switchingTo mode: CursorKeyMode?) async throws -> [UInt8] {
        let switchSequence = mode.map { $0 == .application ? "\\033[?1h" : "\\033[?1l" } ?? ""
        try await shell.send(
            "s=$(stty -g); stty raw -echo; printf '\(switchSequence)RE''ADY\\n'; head -c \(count) | od -An -v -tx1; "
                + "printf '\\033[?1lEN''D\\n'; stty \"$s\"\r")
        try await transcript.wait(for: "READY")
        if let mode { #expect(shell.cursorKeyMode == mode) }
        for key in keys { try await shell.send(key) }
        let dump = String(decoding: try await transcript.wait(for: "END"), as: UTF8.self)
        try await transcript.wait(for: Self.prompt)
        return dump.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }).compactMap { UInt8($0, radix: 16) }
    }
}
