import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench attention` (scripts/bench attention): what rws's Claude Code hook costs a
/// session (the hook run as Claude Code runs it, against a hook that only reads its input), how
/// long an event takes to reach a watcher over loopback and through a 50 ms / 10 Mbit/s link, and
/// what an idle watcher costs in bytes. Prints Markdown.
enum AttentionBenchmark {
    static let hookRuns = 200
    static let latencyRuns = 40

    static func run(server: TestSSHServer) async throws {
        let claude = server.remoteHome + "/bench-claude"
        try FileManager.default.createDirectory(atPath: claude, withIntermediateDirectories: true)
        let locations = WorkspaceLocations(claudeDirectories: [claude])
        try await server.withConnection { _ = try await ClaudeHooks(connection: $0, locations: locations).install() }
        let folder = claude + "/rws"
        let command = try ClaudeHookSettings(hookPath: folder + "/hook.sh").command

        print("## The hook's cost per event (dash, \(hookRuns) runs each; ms)\n")
        var hooks = MarkdownTable(["hook", "p50", "p99", "max"])
        let stop = payload("Stop", #","last_assistant_message":"Done.\nAll tests pass.""#)
        let permission = payload("PermissionRequest", #","tool_name":"Bash","tool_input":{"command":"npm test"}"#)
        let write = payload(
            "PermissionRequest",
            #","tool_name":"Write","tool_input":{"file_path":"big.txt","content":""# + String(repeating: "x", count: 100_000) + #""}"#)
        for (name, line, input) in [
            ("reference: `cat >/dev/null`", "cat >/dev/null", stop), ("rws hook, Stop", command, stop),
            ("rws hook, PermissionRequest, nobody watching", command, permission),
            ("rws hook, PermissionRequest of a 100 KB Write (cut)", command, write),
        ] {
            hooks.add([name, percentileCells(try spawnTimes(line, input: input, directory: claude))])
        }
        print(hooks)

        print("\n## Event to watcher (hook run on the box until the watch yields it; \(latencyRuns) events; ms)\n")
        var links = MarkdownTable(["link", "p50", "p99", "max"])
        try await server.withConnection { connection in
            links.add([
                "loopback", percentileCells(try await latencies(connection, locations: locations, command: command, folder: folder)),
            ])
        }
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 1_250_000, latency: .milliseconds(25)))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        do {
            let samples = try await latencies(connection, locations: locations, command: command, folder: folder)
            links.add(["50 ms round trip, 10 Mbit/s", percentileCells(samples)])
            print(links)
            let watch = try await ClaudeAttentionWatch.start(on: connection, locations: locations)
            try await Task.sleep(for: .seconds(2))
            let before = proxy.forwardedBytes
            try await Task.sleep(for: .seconds(30))
            let idle = (proxy.forwardedBytes - before) * 2
            try await watch.stop()
            print("\nAn idle watcher: \(idle) bytes per minute both ways (the loop's heartbeat every 5 s and the transport).")
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// `hookRuns` times of `/usr/bin/dash -c line` with `input` on stdin, each spawned as Claude Code
    /// spawns a hook (python3's subprocess: a fork and exec, no Foundation in between), in seconds.
    static func spawnTimes(_ line: String, input: String, directory: String) throws -> [Double] {
        let inputPath = directory + "/bench-input.json"
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath))
        let driver = """
            import subprocess, sys, time
            for _ in range(int(sys.argv[3])):
                with open(sys.argv[2], 'rb') as f:
                    t = time.perf_counter()
                    subprocess.run(['/usr/bin/dash', '-c', sys.argv[1]], stdin=f, stdout=subprocess.DEVNULL, cwd=sys.argv[4])
                    print(time.perf_counter() - t)
            """
        let output = try Shell.run("/usr/bin/python3", ["-c", driver, line, inputPath, String(hookRuns), directory])
        return output.split(separator: "\n").compactMap { Double($0) }
    }

    static func payload(_ event: String, _ extra: String) -> String {
        #"{"session_id":"bench","transcript_path":"/nowhere.jsonl","cwd":"/home/dev/app","hook_event_name":"\#(event)"\#(extra)}"#
    }

    /// For each run, the time from starting the hook on the box to the watch's event.
    static func latencies(
        _ connection: SSHConnection, locations: WorkspaceLocations, command: String, folder: String
    ) async throws -> [Double] {
        let watch = try await ClaudeAttentionWatch.start(on: connection, locations: locations)
        var events = watch.makeAsyncIterator()
        var samples: [Double] = []
        for number in 0..<latencyRuns {
            let started = ContinuousClock.now
            // The box is this machine: the hook runs here as Claude Code would run it.
            _ = try ScriptShells.execute(
                "/usr/bin/dash", ["-c", command], input: Array(payload("UserPromptSubmit", #","prompt":"p\#(number)""#).utf8),
                directory: folder)
            while let event = try await events.next() {
                if case .promptSubmitted(let prompt) = event.kind, prompt == "p\(number)" { break }
            }
            samples.append(seconds(since: started))
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<250)))
        }
        try await watch.stop()
        return samples
    }
}
