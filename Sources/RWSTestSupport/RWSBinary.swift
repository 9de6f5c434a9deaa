import Foundation

/// Runs the built `rws` executable, as a person would, and captures what it prints.
public enum RWSBinary {
    /// What one run printed and how it exited.
    public struct Outcome: Sendable {
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
        /// Exit status (128 + N when signal N killed rws).
        public var status: Int32
        /// The signal that killed rws, when one did instead of rws exiting by itself.
        public var killedBy: Int32? = nil
    }

    /// The `rws` in the build products folder of the running test bundle: the CLI tests depend on
    /// the `rws` target, so building them builds it there.
    public static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("rws").path
    }

    /// Runs `rws` with `arguments`, `stdin` as its input, and `environment` added to a clean one
    /// whose HOME is `home` (never the real home).
    public static func run(
        _ arguments: [String], stdin: String = "", home: String,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError.commandFailed("\(path) is missing: build the tests with `swift build --build-tests`, which builds it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus)
    }
}

extension TestSSHServer {
    /// The connection flags for `rws` that reach this server with its throwaway key and known_hosts.
    public var rwsFlags: [String] {
        [
            "--host", "\(user)@127.0.0.1:\(port)", "--identity", clientKeyPath, "--known-hosts", knownHostsPath,
            "-F", directory.path + "/empty_ssh_config",
        ]
    }
}
