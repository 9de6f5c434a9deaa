import Foundation
import RWSTestSupport
import SSHClient

/// The soak's link: with ``SoakOptions/cutEvery`` set, a ``FaultProxy`` between client and server
/// that stops all traffic for ``SoakOptions/cutLength`` seconds at that period, the way a NAT or
/// a Wi-Fi link drops out and comes back. The connection must ride it out (the cut is shorter
/// than the dead-peer timeout) with nothing lost or repeated.
struct SoakLink: Sendable {
    let proxy: FaultProxy?
    let configuration: SSHConnectionConfiguration

    init(_ configuration: SSHConnectionConfiguration, options: SoakOptions) throws {
        guard options.cutEvery > 0 else {
            (proxy, self.configuration) = (nil, configuration)
            return
        }
        let proxy = try FaultProxy(targetPort: configuration.port)
        var through = configuration
        through.port = proxy.port
        // The server's key, trusted under the proxy's address too.
        let known = try String(contentsOfFile: configuration.knownHostsFile, encoding: .utf8)
        let path = NSTemporaryDirectory() + "rws-soak-known-hosts-\(proxy.port)"
        try known.replacingOccurrences(of: "[\(configuration.host)]:\(configuration.port) ", with: "[\(configuration.host)]:\(proxy.port) ")
            .write(toFile: path, atomically: true, encoding: .utf8)
        through.knownHostsFile = path
        (self.proxy, self.configuration) = (proxy, through)
    }

    /// Cuts the link every `cutEvery` seconds until `end`; each cut is noted in `latencies`.
    func cutter(
        _ options: SoakOptions, start: ContinuousClock.Instant, until end: ContinuousClock.Instant,
        latencies: SoakLatencies
    ) async {
        guard let proxy else { return }
        var next = options.cutEvery
        while start + .seconds(next + options.cutLength) < end {
            try? await Task.sleep(until: start + .seconds(next), clock: .continuous)
            let from = seconds(since: start)
            proxy.setBlackHole(true)
            FileHandle.standardError.write(Data(String(format: "soak: link cut at t=%.1fs for %.0f s\n", from, options.cutLength).utf8))
            try? await Task.sleep(for: .seconds(options.cutLength))
            proxy.setBlackHole(false)
            latencies.cut(from: from, to: seconds(since: start))
            next += options.cutEvery
        }
    }

    func stop() {
        proxy?.stop()
        if let proxy { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "rws-soak-known-hosts-\(proxy.port)") }
    }
}
