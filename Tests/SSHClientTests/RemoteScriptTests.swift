import Foundation
import RWSTestSupport
import Testing

@testable import SSHClient

/// Every script SSHClient runs on the box is a constant body with positional arguments: it passes
/// shellcheck, declares its exit statuses, and behaves the same under dash, bash and BusyBox sh,
/// whatever bytes its arguments hold.
@Suite struct RemoteScriptTests {
    private typealias Files = ShellFileScripts
    private static let hostile = ScriptCase.hostile

    @Test func everyScriptPassesShellcheck() throws {
        #expect(try ScriptShells.shellcheck(RemoteScript.sshClientScripts) == [])
    }

    @Test func everyExitStatusInABodyIsDeclaredAndEveryDeclaredOneIsUsed() {
        #expect(ScriptShells.exitMismatches(RemoteScript.sshClientScripts) == [])
    }

    @Test func theCommandLineCarriesHostileArgumentsAsWordsAfterAConstantBody() throws {
        let line = try Files.stat.commandLine([.path("~/" + Self.hostile), .word("1")])
        #expect(
            line.hasPrefix(
                "exec /bin/sh -c '" + (RemoteScript.descriptorCheck + Files.stat.body).replacingOccurrences(of: "'", with: #"'\''"#)
                    + "' rws \"$HOME\"/'-n "))
    }

    @Test func noScriptDeclaresTheStatusOfAShellThatCannotOpenFiles() {
        #expect(!RemoteScript.sshClientScripts.contains { $0.exitCodes.contains(RemoteScript.outOfDescriptorsStatus) })
    }

    @Test func aCheckReportIsToldFromAFileThatStartsTheSameByItsStatus() {
        let report = Array("rws-no-descriptors\n10\n".utf8)
        let outOfDescriptors = Files.read.outOfDescriptors(CommandResult(stdout: report, stderr: [], status: .exited(71)))
        #expect(outOfDescriptors == .boxOutOfDescriptors(step: "reading", openFileLimit: 10))
        #expect(Files.read.outOfDescriptors(CommandResult(stdout: report, stderr: [], status: .exited(0))) == nil)
        #expect(ProcessKill.script.outOfDescriptors(CommandResult(stdout: report, stderr: [], status: .exited(71))) == nil)
        #expect(RemoteScript.mayBeOutOfDescriptorsReport(Array("rws-no-desc".utf8)))
        #expect(RemoteScript.mayBeOutOfDescriptorsReport(report))
        #expect(!RemoteScript.mayBeOutOfDescriptorsReport(Array("rws-no-descriptors\n10\n".utf8) + [UInt8](repeating: 65, count: 40)))
        #expect(!RemoteScript.mayBeOutOfDescriptorsReport(Array("hello".utf8)))
    }

    @Test func everyScriptHasACaseRunUnderEveryShell() {
        #expect(ScriptCase.uncovered(RemoteScript.sshClientScripts, by: Self.cases) == [])
    }

    @Test(arguments: cases)
    func theScriptBehavesTheSameUnderDashBashAndBusyBox(_ scriptCase: ScriptCase) throws {
        let problems = try scriptCase.runUnderEveryShell()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Starts `sleep 60` as the leader of a session of its own; returns its PID (written to `pid`).
    private static func startSessionLeader(in sandbox: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", "/bin/sh", "-c", "echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60"]
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox)
        try? process.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: sandbox + "/pid") { Thread.sleep(forTimeInterval: 0.02) }
        return (try? String(contentsOfFile: sandbox + "/pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
    }

    /// `$1` of `setup` is the sandbox, `$2` the hostile word; `f` below is the hostile file.
    private static let files =
        #"printf 'hello\n' > "$2"; ln -s -- "$2" link; mkdir dir; chmod 644 -- "$2"; touch -h -d @1700000000 -- "$2" link dir home"#

    /// A socket listening in this process for the ports case, for the life of the test run.
    static let portsListener = try! EchoServer()

    /// The run without kill's complaints about a process that ended between a look and the
    /// signal: each shell says so on stderr, which rws does not read, in words of its own.
    @Sendable static func withoutProcessesGoneMeanwhile(_ run: ScriptShells.Run) -> ScriptShells.Run {
        var run = run
        run.stderr = run.stderr.split(separator: "\n").filter { !$0.contains("No such process") }.joined(separator: "\n")
        return run
    }

    /// The run with only ``portsListener``'s row, as "PORT ADDRESS PID".
    @Sendable static func ownPorts(_ run: ScriptShells.Run) -> ScriptShells.Run {
        var run = run
        let mine = ListeningPortScript.parse(run.stdoutText).filter { $0.port == portsListener.port }
        run.stdout = Array(mine.map { "\($0.port) \($0.address) \($0.process?.pid ?? 0)\n" }.joined().utf8)
        return run
    }

    static let cases: [ScriptCase] = [
        ScriptCase("find: a preferred multiplexer first", PersistentShellScripts.find, arguments: { _ in [.word("screen")] }) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdoutText == "screen\n", "\(run)")
        },
        ScriptCase(
            "attach: an unknown multiplexer does nothing", PersistentShellScripts.attach,
            arguments: { _ in [.word("none"), .word(hostile)] }
        ) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdout.isEmpty, "\(run)")
        },
        ScriptCase(
            "named: locating no session of that name", PersistentShellScripts.named, arguments: { _ in [.word("locate"), .word(hostile)] }
        ) { run, _ in
            try ScriptCase.require(run.status == PersistentShellScripts.Exit.noSuchShell.rawValue && run.stdout.isEmpty, "\(run)")
        },
        ScriptCase(
            "ports: a socket listening in this process, with its owner", ListeningPortScript.script,
            // Only this process's listener: the machine's other sockets come and go between shells.
            normalize: ownPorts,
            arguments: { _ in
                _ = Self.portsListener  // listening before the first shell runs
                return []
            }
        ) { run, _ in
            let mine = ownPorts(run)
            try ScriptCase.require(mine.status == 0 && mine.stdoutText == "\(Self.portsListener.port) 127.0.0.1 \(getpid())\n", "\(run)")
        },
        ScriptCase("status: none kept for that name", PersistentShellScripts.status, arguments: { _ in [.word(hostile)] }) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        },
        ScriptCase("list: no sessions", PersistentShellScripts.list, arguments: { _ in [] }) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdout.isEmpty, "\(run)")
        },
        ScriptCase(
            "named: killing no session of that name", PersistentShellScripts.named, arguments: { _ in [.word("kill"), .word(hostile)] }
        ) { run, _ in
            try ScriptCase.require(run.status == PersistentShellScripts.Exit.noSuchShell.rawValue, "\(run)")
        },
        ScriptCase(
            "the kill script stops a session's processes", ProcessKill.script,
            normalize: withoutProcessesGoneMeanwhile,
            arguments: { sandbox in [.word(Self.startSessionLeader(in: sandbox)), .word("2"), .word("0.2")] }
        ) { run, sandbox in
            try ScriptCase.require(run.stdoutText == "rws-stop:\n", "\(run)")
            let pid = try String(contentsOfFile: sandbox + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")[2]
            try ScriptCase.require(state == nil || state == "Z", "process \(pid) still runs: \(state.map(String.init) ?? "")")
        },
        ScriptCase(
            "the stoppable wrapper runs the command with no arguments of its own", StoppableCommand.script,
            normalize: { run in
                var run = run
                run.stdout = Array(run.stdoutText.replacing(/rws-pid:[0-9]+/, with: "rws-pid:N").utf8)
                return run
            },
            arguments: { _ in [.word("printf '<%s>' \"$#\" \"$0\" \(try! ShellQuoting.quote(hostile)); exit 5")] }
        ) { run, _ in
            try ScriptCase.require(
                run.status == 5 && run.stdoutText.hasPrefix("rws-pid:")
                    && run.stdoutText.hasSuffix("\n<0><rws><\(hostile)>"), "\(run)")
        },
        ScriptCase(
            "the stoppable wrapper of a terminal's program runs it after one line of input", StoppableCommand.script,
            input: Array("the answer to the PID line\nfor the program".utf8),
            normalize: { run in
                var run = run
                run.stdout = Array(run.stdoutText.replacing(/rws-pid:[0-9]+/, with: "rws-pid:N").utf8)
                return run
            },
            arguments: { _ in [.word("cat; printf '<%s>' \"$#\""), .word("terminal")] }
        ) { run, _ in
            // The line went to the wrapper, the rest to the command.
            try ScriptCase.require(
                run.status == 0 && run.stdoutText.hasPrefix("rws-pid:") && run.stdoutText.hasSuffix("\nfor the program<0>")
                    && !run.stdoutText.contains("the answer"), "\(run)")
        },
        ScriptCase("home", Files.home, arguments: { _ in [] }) { run, sandbox in
            try ScriptCase.require(run.stdoutText == sandbox + "/home", "\(run)")
        },
        ScriptCase("stat of a hostile name", Files.stat, setup: files, arguments: { [.path($0 + "/" + hostile), .word("0")] }) {
            run, sandbox in
            try ScriptCase.require(run.stdoutText == "81a4 6 \(getuid()) \(getgid()) 1700000000 \(sandbox)/\(hostile)\n", "\(run)")
        },
        ScriptCase("stat of a missing path", Files.stat, arguments: { [.path($0 + "/missing"), .word("1")] }) { run, _ in
            try ScriptCase.require(run.status == Files.Exit.failed.rawValue && run.stderr.contains("No such file"), "\(run)")
        },
        ScriptCase("reading a link", Files.readLink, setup: files, arguments: { [.path($0 + "/link")] }) { run, _ in
            try ScriptCase.require(run.stdoutText == hostile + "\n", "\(run)")
        },
        ScriptCase("reading a link that is not one", Files.readLink, setup: files, arguments: { [.path($0 + "/dir")] }) { run, _ in
            try ScriptCase.require(run.status == 1 && run.stderr == "rws-error:EINVAL\n", "\(run)")
        },
        ScriptCase("reading a range", Files.read, setup: files, arguments: { [.path($0 + "/" + hostile), .word("2"), .word("3")] }) {
            run, _ in
            try ScriptCase.require(run.stdoutText == "ell", "\(run)")
        },
        ScriptCase("reading the whole file", Files.read, setup: files, arguments: { [.path($0 + "/" + hostile), .word("1"), .word("")] }) {
            run, _ in
            try ScriptCase.require(run.stdoutText == "hello\n", "\(run)")
        },
        ScriptCase("reading from an offset", Files.read, setup: files, arguments: { [.path($0 + "/" + hostile), .word("4"), .word("")] }) {
            run, _ in
            try ScriptCase.require(run.stdoutText == "lo\n", "\(run)")
        },
        ScriptCase("reading a directory", Files.read, setup: files, arguments: { [.path($0 + "/dir"), .word("1"), .word("2")] }) { run, _ in
            try ScriptCase.require(run.status == 1 && run.stderr == "rws-error:EISDIR\n", "\(run)")
        },
        ScriptCase(
            "writing", Files.write, setup: files, input: Array("new".utf8),
            arguments: { [.path($0 + "/" + hostile), .path($0), .word(".tmp-" + hostile), .word("600")] }
        ) { run, sandbox in
            let path = sandbox + "/" + hostile
            try ScriptCase.require(run.status == 0 && (try? String(contentsOfFile: path, encoding: .utf8)) == "new", "\(run)")
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            try ScriptCase.require(mode == 0o600, "mode \(String(mode, radix: 8))")
        },
        ScriptCase("appending", Files.append, setup: files, input: Array("more".utf8), arguments: { [.path($0 + "/" + hostile)] }) {
            run, sandbox in
            try ScriptCase.require(
                run.status == 0 && (try? String(contentsOfFile: sandbox + "/" + hostile, encoding: .utf8)) == "hello\nmore", "\(run)")
        },
        ScriptCase(
            "placing a file with its mode and time", Files.place, setup: files, input: Array("placed".utf8),
            arguments: { [.path($0 + "/" + hostile), .word("0"), .word("640"), .word("1600000000")] }
        ) { run, sandbox in
            let path = sandbox + "/" + hostile
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            try ScriptCase.require(
                run.status == 0 && (try? String(contentsOfFile: path, encoding: .utf8)) == "placed"
                    && (attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640
                    && (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000, "\(run)")
        },
        ScriptCase(
            "placing a chunk after another, new files private", Files.place, input: Array("chunk".utf8),
            arguments: { [.path($0 + "/new"), .word("1"), .word(""), .word("")] }
        ) { run, sandbox in
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox + "/new")
            try ScriptCase.require(
                run.status == 0 && (try? String(contentsOfFile: sandbox + "/new", encoding: .utf8)) == "chunk"
                    && (attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(run)")
        },
        ScriptCase(
            "replacing a file by another in one rename", Files.replace, setup: files + "\nprintf new > \"$1/tmp\"",
            arguments: { [.word($0 + "/tmp"), .word($0 + "/" + hostile)] }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && (try? String(contentsOfFile: sandbox + "/" + hostile, encoding: .utf8)) == "new"
                    && !FileManager.default.fileExists(atPath: sandbox + "/tmp"), "\(run)")
        },
        ScriptCase(
            "checking the free space", Files.freeSpace, setup: files,
            // The free space changes between runs; its shape does not.
            normalize: { run in
                var run = run
                run.stdout = Array(run.stdoutText.replacing(/[0-9]+/, with: "N").utf8)
                return run
            },
            arguments: { [.path($0 + "/dir")] }
        ) { run, _ in
            try ScriptCase.require(run.status == 0 && (Int(run.stdoutText.trimmingCharacters(in: .newlines)) ?? -1) >= 0, "\(run)")
        },
        ScriptCase(
            "finishing an upload", Files.finishUpload, setup: files + "\nprintf new > \"$1/tmp\"",
            arguments: { [.path($0 + "/tmp"), .path($0 + "/" + hostile), .word("640"), .word("1600000000")] }
        ) { run, sandbox in
            let path = sandbox + "/" + hostile
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            try ScriptCase.require(
                run.status == 0 && (try? String(contentsOfFile: path, encoding: .utf8)) == "new"
                    && (attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640
                    && (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000
                    && !FileManager.default.fileExists(atPath: sandbox + "/tmp"), "\(run)")
        },
        ScriptCase(
            "finishing a tree upload", Files.finishTree,
            setup: "mkdir -p \"$1/tmp/sub/deep\" && printf x > \"$1/tmp/sub/f\" && ln -s old \"$1/tmp/sub/link\"",
            argumentsOnInput: true,
            arguments: { sandbox in
                let (top, sub, deep) = (sandbox + "/tmp", sandbox + "/tmp/sub", sandbox + "/tmp/sub/deep")
                return [.path(top), .path(sandbox + "/" + hostile), .word("1"), .word(hostile), .path(sub + "/link")]
                    + ["t", "1600000000", "2"].map(RemoteScript.Argument.word) + [.path(deep), .path(sub)]
                    + ["t", "1600000001", "1"].map(RemoteScript.Argument.word) + [.path(top)]
                    + ["m", "750", "2"].map(RemoteScript.Argument.word) + [.path(deep), .path(sub)]
                    + ["m", "705", "1"].map(RemoteScript.Argument.word) + [.path(top)]
            }
        ) { run, sandbox in
            let tree = sandbox + "/" + hostile
            let top = try FileManager.default.attributesOfItem(atPath: tree)
            let sub = try FileManager.default.attributesOfItem(atPath: tree + "/sub")
            let deep = try FileManager.default.attributesOfItem(atPath: tree + "/sub/deep")
            try ScriptCase.require(
                run.status == 0 && (try? FileManager.default.destinationOfSymbolicLink(atPath: tree + "/sub/link")) == hostile
                    && (sub[.posixPermissions] as? NSNumber)?.intValue == 0o750 && (top[.posixPermissions] as? NSNumber)?.intValue == 0o705
                    && (deep[.posixPermissions] as? NSNumber)?.intValue == 0o750
                    && (top[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_001
                    && (sub[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000
                    && (deep[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_600_000_000
                    && !FileManager.default.fileExists(atPath: sandbox + "/tmp"), "\(run)")
        },
        ScriptCase(
            "making the folders of a tree upload", Files.makeFolders, setup: "mkdir \"$1/a\"", argumentsOnInput: true,
            arguments: { sandbox in
                [.word("2"), .path(sandbox + "/a"), .path(sandbox + "/a/b"), .word("1"), .path(sandbox + "/a/b/" + hostile)]
            }
        ) { run, sandbox in
            let made = try FileManager.default.attributesOfItem(atPath: sandbox + "/a/b/" + hostile)
            try ScriptCase.require(
                run.status == 0 && (made[.type] as? FileAttributeType) == .typeDirectory
                    && (made[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(run)")
        },
        ScriptCase(
            "making the folders of a tree upload where a file is", Files.makeFolders, setup: "printf x > \"$1/a\"",
            argumentsOnInput: true, arguments: { [.word("2"), .path($0 + "/a"), .path($0 + "/a/b")] }
        ) { run, sandbox in
            try ScriptCase.require(run.status == 1 && !FileManager.default.fileExists(atPath: sandbox + "/a/b"), "\(run)")
        },
        ScriptCase(
            "finishing a tree upload over an existing target", Files.finishTree, setup: "mkdir \"$1/tmp\" \"$1/there\"",
            argumentsOnInput: true, arguments: { [.path($0 + "/tmp"), .path($0 + "/there"), .word("0")] }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 1 && run.stderr.contains("rws-error:EEXIST") && FileManager.default.fileExists(atPath: sandbox + "/tmp"),
                "\(run)")
        },
        ScriptCase("making directories", Files.makeDirectory, arguments: { [.path($0 + "/a/" + hostile), .word("700"), .word("1")] }) {
            run, sandbox in
            var isDirectory: ObjCBool = false
            try ScriptCase.require(
                run.status == 0 && FileManager.default.fileExists(atPath: sandbox + "/a/" + hostile, isDirectory: &isDirectory)
                    && isDirectory.boolValue, "\(run)")
        },
        ScriptCase(
            "making a directory that exists", Files.makeDirectory, setup: files,
            arguments: { [.path($0 + "/dir"), .word("700"), .word("0")] }
        ) { run, _ in
            try ScriptCase.require(run.status == 1 && run.stderr.contains("File exists"), "\(run)")
        },
        ScriptCase("removing", Files.remove, setup: files, arguments: { [.path($0 + "/" + hostile), .word("0")] }) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && !FileManager.default.fileExists(atPath: sandbox + "/" + hostile)
                    && FileManager.default.fileExists(atPath: sandbox + "/dir"), "\(run)")
        },
        ScriptCase("removing a tree", Files.remove, setup: files + "; touch dir/x", arguments: { [.path($0 + "/dir"), .word("1")] }) {
            run, sandbox in
            try ScriptCase.require(run.status == 0 && !FileManager.default.fileExists(atPath: sandbox + "/dir"), "\(run)")
        },
        ScriptCase(
            "listing", Files.list, alsoCovers: [Files.listBatch], setup: files,
            arguments: { [.path($0), .word("1"), .word(Files.listBatch.body)] }
        ) { run, _ in
            let entries = try ShellListingParser.parse(run.stdout)
            try ScriptCase.require(
                run.status == 0 && Set(entries.map { String(decoding: $0.name, as: UTF8.self) }) == [hostile, "link", "dir", "home"],
                "\(run)")
        },
    ]
}
