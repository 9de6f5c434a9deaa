import RWSTestSupport

/// `rws-bench fault-soak [--duration SECONDS] [--server openssh|dropbear] [--cut-every SECONDS]
/// [--black-hole-every SECONDS] [--black-hole-length SECONDS]`.
///
/// Defaults: 10 minutes on OpenSSH, every connection through the proxy reset every
/// 30 s, all traffic black-holed for 20 s every 2 minutes. The last ``quietSeconds`` have no
/// fault, so that everything can come back before the end is judged.
struct FaultSoakOptions: Sendable {
    var duration = 600.0
    var kind = ServerKind.openssh
    var cutEvery = 30.0
    var blackHoleEvery = 120.0
    var blackHoleLength = 20.0
    /// `rws exec --timeout` of every command (each sleeps 0.3 s).
    var commandTimeout = 4
    /// Seconds between samples of the long-lived rws processes' descriptors and threads.
    var sampleEvery = 5.0

    /// No fault in the last this many seconds: longer than the reconnect back-off can grow
    /// after a black hole (1, 2, 4, 8, 16 s).
    var quietSeconds: Double { min(40, duration / 3) }

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst() else { throw BenchFailure("\(flag) needs a value") }
            if flag == "--server" {
                guard let kind = ServerKind(rawValue: text) else { throw BenchFailure("--server is openssh or dropbear, not \(text)") }
                self.kind = kind
                continue
            }
            guard let value = Double(text), value > 0 else { throw BenchFailure("\(flag) needs a positive number") }
            switch flag {
            case "--duration": duration = value
            case "--cut-every": cutEvery = value
            case "--black-hole-every": blackHoleEvery = value
            case "--black-hole-length": blackHoleLength = value
            default: throw BenchFailure("unknown fault-soak option \(flag)")
            }
        }
    }
}
