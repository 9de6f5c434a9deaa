import Foundation
import RWSTestSupport
import Testing

/// The fault soak, sampled: `rws-bench fault-soak` (follow, persistent shell, forward, watch and
/// commands) for a minute, every connection
/// reset every 10 s and black-holed for 8 s once, against each server. `scripts/bench fault-soak`
/// runs it in full (10 minutes, resets every 30 s, 20 s black holes every 2 minutes).
@Suite(.timeLimit(.minutes(5))) struct FaultSoakTests {
    @Test(arguments: ServerKind.allCases)
    func aMinuteOfResetsAndABlackHoleLosesNoFollowLineOrWatchEventAndLeavesNothingOnTheBox(kind: ServerKind) async throws {
        let run = try await RWSBench.run(
            [
                "fault-soak", "--duration", "60", "--server", kind.rawValue, "--cut-every", "10", "--black-hole-every", "25",
                "--black-hole-length", "8",
            ], environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"])
        let (log, summaryData) = (run.log, run.stdout)
        let parsed = try? JSONSerialization.jsonObject(with: summaryData) as? [String: Any]
        let summary = try #require(parsed, "no summary (exit \(run.status)); log:\n\(log.suffix(6000))")
        #expect(run.status == 0, "problems: \(summary["problems"] ?? [])\n\(log.suffix(3000))")
        let faults = summary["faults"] as? [String: Int] ?? [:]
        #expect(faults["cuts"] ?? 0 >= 2 && faults["blackHoles"] == 1, "\(faults)")
        let follow = summary["follow"] as? [String: Int] ?? [:]
        #expect(follow["written"] ?? 0 >= 80 && follow["shown"] == follow["written"], "\(follow)")
        let watch = summary["watch"] as? [String: Int] ?? [:]
        #expect(watch["reported"] ?? 0 >= 20 && watch["shown"] == watch["reported"], "\(watch)")
        let forward = summary["forward"] as? [String: Int] ?? [:]
        #expect(forward["connections"] ?? 0 >= 40 && forward["carried"] ?? 0 >= 20, "\(forward)")
        let commands = summary["commands"] as? [String: Int] ?? [:]
        #expect(commands.values.reduce(0, +) >= 30, "\(commands)")
        #expect(commands["unexplained"] == nil, "\(commands)")
    }
}
