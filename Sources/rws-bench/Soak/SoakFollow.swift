import Foundation
import SSHClient
import Synchronization

/// A follow of a growing file on the box: one `tail -F` exec kept open for the whole soak while
/// a periodic exec appends a numbered line every second. Every line must arrive exactly once and
/// in order, through link cuts too.
enum SoakFollow {
    /// The remote file, in the remote home; its name also finds leftover processes.
    static func path() -> String { "rws-soak-follow-\(ProcessInfo.processInfo.processIdentifier).log" }

    static func run(_ connection: SSHConnection, turns: SoakExecTurns, until end: ContinuousClock.Instant, ledger: SoakLedger) async {
        let path = path()
        do {
            _ = try await turns.run { try await connection.run(": > \(path)") }
            let follow = try await turns.run {
                let follow = try connection.stream("exec tail -n +1 -F \(path) 2>/dev/null")
                // Started once its PID came back: only then may another command end (SoakExecTurns).
                for _ in 0..<500 where follow.processID == nil { try await Task.sleep(for: .milliseconds(10)) }
                return follow
            }
            // One line a second: room for all of them before the run, so the record does not grow.
            var room = [String](repeating: "", count: Int(ContinuousClock.now.duration(to: end).components.seconds) + 16)
            room.removeAll(keepingCapacity: true)
            let received = Mutex(room)
            let reader = Task {
                var pending: [UInt8] = []
                for try await event in follow.output {
                    guard case .stdout(let bytes) = event else { continue }
                    pending.append(contentsOf: bytes)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        received.withLock { $0.append(line) }
                    }
                }
            }
            var written = 0
            while ContinuousClock.now < end {
                written += 1
                let result = try await turns.run { [written] in try await connection.run("echo \(written) >> \(path)") }
                if result.status != .exited(0) { ledger.fail("follow: appending line \(written) exited \(result.status)") }
                try? await Task.sleep(for: .seconds(1))
            }
            // Every line written must have arrived; give the last ones a moment.
            for _ in 0..<200 where received.withLock({ $0.count }) < written {
                try? await Task.sleep(for: .milliseconds(50))
            }
            follow.cancel()
            _ = await reader.result
            let lines = received.withLock { $0 }
            let expected = (1...max(1, written)).map(String.init)
            if lines != expected {
                let duplicates = lines.count - Set(lines).count
                let inOrder = lines == lines.sorted { Int($0) ?? 0 < Int($1) ?? 0 }
                ledger.fail("follow: \(lines.count) lines arrived for \(written) written (\(duplicates) duplicated, in order: \(inOrder))")
            }
            ledger.followLines(lines.count)
            _ = try await turns.run { try await connection.run("rm -f \(path)") }
        } catch {
            ledger.fail("follow: \(error)")
        }
    }

    /// Processes of this soak still on the box (the follow's `tail`, anything naming its files).
    static func leftovers(_ connection: SSHConnection) async throws -> [String] {
        let marker = "rws-soak-[f]ollow-\(ProcessInfo.processInfo.processIdentifier)"
        let result = try await connection.run("ps -eo pid,args | grep '\(marker)' || true")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }
}
