/// How a remote command ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The program exited with this status.
    case exited(Int32)
    /// The program was killed by a signal, named as the server reports it ("TERM", "KILL", ...).
    case signaled(String)

    /// True for `exited(0)`.
    public var isSuccess: Bool { self == .exited(0) }

    /// The code a shell reports: the exit status, or 128 + the signal number for a signal.
    public var shellCode: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let name): return 128 + (SignalName.number(of: name) ?? 0)
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signaled(let name): return "killed by SIG\(name)"
        }
    }
}

/// The complete outcome of ``SSHConnection/run(_:input:timeout:idempotent:)``.
public struct CommandResult: Sendable, Equatable {
    /// Everything the command wrote to its standard output.
    public var stdout: [UInt8]
    /// Everything the command wrote to its standard error.
    public var stderr: [UInt8]
    /// How the command ended.
    public var status: ExitStatus

    /// Creates a result; mostly useful in tests.
    public init(stdout: [UInt8], stderr: [UInt8], status: ExitStatus) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }

    /// Standard output decoded as UTF-8 (invalid bytes replaced).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error decoded as UTF-8 (invalid bytes replaced).
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Signal names as SSH reports them, and their POSIX numbers.
enum SignalName {
    private static let numbers: [String: Int32] = [
        "HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9, "USR1": 10,
        "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
    ]

    static func number(of name: String) -> Int32? {
        numbers[name.hasPrefix("SIG") ? String(name.dropFirst(3)) : name]
    }
}
