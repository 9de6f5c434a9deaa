import Foundation
import SSHClient

/// One representative run of a remote script, tried under every shell of ``ScriptShells`` in a
/// fresh sandbox folder (the same path each time, so outputs compare byte for byte).
package struct ScriptCase: Sendable, CustomStringConvertible {
    /// A user value that every shell must pass through untouched: quotes, command substitutions,
    /// a glob, a backslash, spaces, a newline and a leading `-`.
    package static let hostile = "-n 'q' \"d\" $(touch CANARY) `touch CANARY` * \\ x\nline"

    package var name: String
    package var script: RemoteScript
    /// Scripts this case runs besides ``script`` (a script that another one starts).
    package var alsoCovers: [RemoteScript] = []
    /// Prepares the sandbox (`$1` in `setup`, a shell command run with the hostile word as `$2`).
    package var setup: String = ""
    /// The arguments, given the sandbox's path.
    package var arguments: @Sendable (String) -> [RemoteScript.Argument]
    package var input: [UInt8] = []
    /// The arguments go on stdin (``RemoteScript/input(_:)``), for a script that reads them there.
    package var argumentsOnInput = false
    package var timeout: Duration = .seconds(30)
    /// For a script that loops until stopped: the run ends (its process group killed) once its
    /// output holds this, not after a fixed time a busy machine may not be enough for.
    package var endsOnceOutputHolds: String?
    /// Makes runs comparable (a PID that differs from run to run).
    package var normalize: @Sendable (ScriptShells.Run) -> ScriptShells.Run = { $0 }
    /// Checks one run (and the sandbox after it): throws ``ScriptCase/Failure`` to say what is wrong.
    package var check: @Sendable (ScriptShells.Run, String) throws -> Void

    /// A failed check.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Throws `Failure(message)` unless `condition`.
    package static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(message()) }
    }

    package var description: String { name }

    package init(
        _ name: String, _ script: RemoteScript, alsoCovers: [RemoteScript] = [], setup: String = "", input: [UInt8] = [],
        argumentsOnInput: Bool = false, timeout: Duration = .seconds(30), endsOnceOutputHolds: String? = nil,
        normalize: @escaping @Sendable (ScriptShells.Run) -> ScriptShells.Run = { $0 },
        arguments: @escaping @Sendable (String) -> [RemoteScript.Argument],
        check: @escaping @Sendable (ScriptShells.Run, String) throws -> Void
    ) {
        self.name = name
        self.script = script
        self.alsoCovers = alsoCovers
        self.setup = setup
        self.input = input
        self.argumentsOnInput = argumentsOnInput
        self.timeout = timeout
        self.endsOnceOutputHolds = endsOnceOutputHolds
        self.normalize = normalize
        self.arguments = arguments
        self.check = check
    }

    /// Runs the case under dash, bash and BusyBox sh: each run passes ``check``, runs no command
    /// hidden in an argument (no `CANARY` file), and all three give the same output and status.
    /// Returns what went wrong.
    package func runUnderEveryShell() throws -> [String] {
        var problems: [String] = []
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rws-scripts-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let sandbox = base + "/sandbox"
        var runs: [(ScriptShells.Shell, ScriptShells.Run)] = []
        for shell in try ScriptShells.all(linksIn: base) {
            try? FileManager.default.removeItem(atPath: sandbox)
            try FileManager.default.createDirectory(atPath: sandbox + "/home", withIntermediateDirectories: true)
            if !setup.isEmpty {
                let prepared = try ScriptShells.execute(
                    "/bin/sh", ["-c", "cd \"$1\" && { \(setup)\n}", "sh", sandbox, Self.hostile],
                    directory: sandbox)
                guard prepared.status == 0 else { throw ScriptCase.Failure("\(name): setting up failed: \(prepared)") }
            }
            // A script that starts with RemoteScript.argumentsFromInput reads its arguments on stdin.
            let (positional, stdin) = argumentsOnInput ? ([], try RemoteScript.input(arguments(sandbox))) : (arguments(sandbox), input)
            let run = try ScriptShells.run(
                script, positional, shell: shell, input: stdin, directory: sandbox,
                home: sandbox + "/home", timeout: timeout, endingOnceOutputHolds: endsOnceOutputHolds)
            do { try check(run, sandbox) } catch { problems.append("\(name) under \(shell): \(error) in \(run)") }
            if FileManager.default.fileExists(atPath: sandbox + "/CANARY") {
                problems.append("\(name) under \(shell) ran a command from an argument")
            }
            runs.append((shell, normalize(run)))
        }
        for (shell, run) in runs.dropFirst() {
            if run != runs[0].1 { problems.append("\(name): \(shell) differs from \(runs[0].0): \(run) vs \(runs[0].1)") }
        }
        return problems
    }

    /// The scripts among `scripts` that no case in `cases` runs.
    package static func uncovered(_ scripts: [RemoteScript], by cases: [ScriptCase]) -> [String] {
        let covered = Set(cases.flatMap { [$0.script.body] + $0.alsoCovers.map(\.body) })
        return scripts.filter { !covered.contains($0.body) }.map(\.step)
    }
}
