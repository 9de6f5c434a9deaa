import Foundation

/// What this process holds right now, from /proc (Linux): open descriptors, threads, resident memory.
struct ProcessResources: Codable, Sendable {
    let seconds: Double
    let fds: Int
    let threads: Int
    let rssKiB: Int

    /// This process (`process` "self") or another one, by PID.
    static func sample(at seconds: Double, process: String = "self") -> ProcessResources {
        let manager = FileManager.default
        let fds = (try? manager.contentsOfDirectory(atPath: "/proc/\(process)/fd").count) ?? -1
        let threads = (try? manager.contentsOfDirectory(atPath: "/proc/\(process)/task").count) ?? -1
        return ProcessResources(seconds: seconds, fds: fds, threads: threads, rssKiB: residentKiB(process) ?? -1)
    }

    /// What each open descriptor refers to (`socket:[123]`, `pipe:[456]`, a path), by number.
    static func descriptorTargets() -> [Int: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var targets: [Int: String] = [:]
        for name in names {
            guard let fd = Int(name) else { continue }
            targets[fd] = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? "?"
        }
        return targets
    }

    /// `VmRSS:    12345 kB` of /proc/PROCESS/status.
    private static func residentKiB(_ process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    var line: String {
        String(format: "t=%6.1fs fds=%d threads=%d rss=%.1fMiB", seconds, fds, threads, Double(rssKiB) / 1024)
    }
}

/// How much a soak run may grow from its warmed-up baseline before it counts as a leak.
struct GrowthBounds: Sendable {
    var fds = 2
    var threads = 4
    var rssKiB = 16 * 1024

    /// The ways `samples` after `baseline` exceed the bounds; empty when within them.
    func violations(baseline: ProcessResources, later samples: [ProcessResources]) -> [String] {
        var found: [String] = []
        let peakFDs = samples.map(\.fds).max() ?? baseline.fds
        let peakThreads = samples.map(\.threads).max() ?? baseline.threads
        let peakRSS = samples.map(\.rssKiB).max() ?? baseline.rssKiB
        if peakFDs > baseline.fds + fds { found.append("fds grew from \(baseline.fds) to \(peakFDs) (bound +\(fds))") }
        if peakThreads > baseline.threads + threads {
            found.append("threads grew from \(baseline.threads) to \(peakThreads) (bound +\(threads))")
        }
        if peakRSS > baseline.rssKiB + rssKiB {
            found.append("RSS grew from \(baseline.rssKiB) KiB to \(peakRSS) KiB (bound +\(rssKiB) KiB)")
        }
        return found
    }
}
