import Synchronization

/// Lets at most a few SSH handshakes run at once against one test server: dropbear closes a sixth
/// unauthenticated connection from one address before its banner (docs/servers.md), and test
/// cases running in parallel connect in bursts.
final class HandshakeGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let limit: Int
    private let state = Mutex(State())
    private static let gates = Mutex<[Int: HandshakeGate]>([:])

    private init(limit: Int) {
        self.limit = limit
    }

    /// The gate of the server listening on `port`.
    static func forServer(port: Int, limit: Int = 4) -> HandshakeGate {
        gates.withLock { gates in
            if let gate = gates[port] { return gate }
            let gate = HandshakeGate(limit: limit)
            gates[port] = gate
            return gate
        }
    }

    /// Runs `body` once fewer than `limit` others are in it.
    func pass<T>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state -> Bool in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()  // the slot passes on
        }
        next?.resume()
    }
}
