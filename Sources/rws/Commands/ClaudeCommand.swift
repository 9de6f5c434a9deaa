import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient

struct ClaudeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claude",
        abstract: "Run Claude Code's own interactive UI on the box in this terminal.",
        discussion: """
            Opens a remote terminal (as rws shell does) running claude in PROJECT's directory: a project name in the workspace \
            root (app), or a path on the box. Without PROJECT: the remote home, or the session's own directory with --resume. \
            Keys, Ctrl+C included, go to Claude Code; the escapes of rws shell work (~. disconnects). Without --persist, \
            closing the connection ends Claude Code, the turn in progress with it.

            With --persist, Claude Code runs in a tmux session on the box (GNU screen where tmux is missing), as rws shell \
            --persist does: a dropped link leaves it working, and rws reattaches to the same screen by itself when the box is \
            back; ~. detaches and leaves it running. The session is named claude-PROJECT (claude without a project; --name \
            chooses); run the same command again to come back to it — a running session is attached as it is, the options \
            given apply only when it starts. --attach NAME takes a running one over from any machine (its other terminals \
            are detached). --list-persistent shows the persistent sessions, --kill-persistent NAME ends one and Claude Code \
            in it.

            Since Claude Code 2.1.33x its interactive UI starts in the auto permission mode (its footer says so): it decides \
            itself and asks no permission questions. --permission-mode default makes it ask; with a mode in which some \
            questions never come, rws says so before the UI starts.

            Exit status: Claude Code's (with --persist too: the box keeps it for rws, since tmux and screen do not pass it \
            on); 255 after ~. or when the \
            connection failed; 1 when a persistent session ended while the link was down.

            Examples:
              rws claude --host box app
              rws claude --host box --continue app
              rws claude --host box --resume 0b1c
              rws claude --host box --persist app
              rws claude --host box --attach claude-app
              rws claude --host box --kill-persistent claude-app
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box.")
    var project: String?

    @OptionGroup var start: ClaudeStartOptions

    @Flag(
        name: .long,
        help: "Run Claude Code in a persistent tmux (or screen) session on the box that outlives the link; reattach to it if it runs.")
    var persist = false

    @Option(name: .long, help: ArgumentHelp("The persistent session's name (with --persist; default claude-PROJECT).", valueName: "name"))
    var name: String?

    @Option(
        name: .long, help: ArgumentHelp("Take over the running persistent session NAME, detaching its other terminals.", valueName: "name"))
    var attach: String?

    @Flag(name: .long, help: "List the persistent sessions on the box and exit.")
    var listPersistent = false

    @Option(name: .long, help: ArgumentHelp("End the persistent session NAME and Claude Code in it, then exit.", valueName: "name"))
    var killPersistent: String?

    func validate() throws {
        if let name, !persist { throw ValidationError("a session name goes with --persist: rws claude --persist --name \(name)") }
        let modes = [persist, attach != nil, listPersistent, killPersistent != nil].filter { $0 }.count
        if modes > 1 { throw ValidationError("give one of --persist, --attach, --list-persistent and --kill-persistent") }
        if modes == 1, !persist, project != nil || start.isGiven {
            throw ValidationError("--attach, --list-persistent and --kill-persistent take no project and no start options")
        }
    }

    func run() async throws {
        if listPersistent || killPersistent != nil {
            return try await PersistentTerminal.manage(kill: killPersistent, connection: connection)
        }
        if let attach {
            return try await PersistentTerminal.run(attach, connection: connection, resume: "rws claude --attach \(attach)") {
                ssh, configuration, _ in
                try await ssh.openPersistentShell(named: attach, opening: .takeOver, configuration)
            }
        }
        if persist { return try await runPersistent() }
        try await runReportingErrors {
            guard Terminal.isTTY(STDIN_FILENO) else {
                throw CLIError.usage("rws claude needs a terminal; use rws ask to talk to Claude Code without one")
            }
            let options = try start.options(project: project, locations: workspace.locations())
            start.warnAboutUnknownMode()
            start.noteQuestionlessMode()
            return try await connection.withConnection { ssh in
                let command = try await ClaudeStartOptions.prepare(options, on: ssh).interactiveCommandLine()
                return try await RemoteTerminal.run(command, on: ssh)
            }
        }
    }

    /// Claude Code in session `--name` (or claude-PROJECT), started on first use; after a lost link
    /// only the running session is attached again: one that ended meanwhile is not started afresh.
    private func runPersistent() async throws {
        let name = name ?? Self.sessionName(project: project, resume: start.resume)
        let (start, project, locations) = (start, project, workspace.locations())
        start.warnAboutUnknownMode()
        start.noteQuestionlessMode()
        try await PersistentTerminal.run(name, connection: connection, resume: "rws claude --attach \(name)") {
            ssh, configuration, reattaching in
            if reattaching { return try await ssh.openPersistentShell(named: name, opening: .takeOver, configuration) }
            let options = try start.options(project: project, locations: locations)
            var configuration = configuration
            configuration.command = try await ClaudeStartOptions.prepare(options, on: ssh).interactiveCommandLine()
            return try await ssh.openPersistentShell(named: name, configuration)
        }
    }

    /// claude-PROJECT (the last path component; characters tmux or screen would misread become
    /// `-`), claude-ID for a resumed session, else claude.
    static func sessionName(project: String?, resume: String?) -> String {
        let base = project.map { ($0 as NSString).lastPathComponent } ?? resume ?? ""
        let cleaned = String(
            base.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                    ? Character(scalar) : "-"
            })
        return cleaned.allSatisfy { $0 == "-" } ? "claude" : String(("claude-" + cleaned).prefix(64))
    }
}

/// Which conversation Claude Code starts with, and how: shared by `rws ask` and `rws claude`.
struct ClaudeStartOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Continue this session (a unique id prefix is enough).", valueName: "id"))
    var resume: String?

    @Flag(name: .customLong("continue"), help: "Continue the most recent conversation in the directory.")
    var continueMostRecent = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "default, plan, acceptEdits, bypassPermissions, dontAsk, auto, or any mode the box's Claude Code accepts.", valueName: "mode"))
    var permissionMode: String?

    @Option(name: .long, help: ArgumentHelp("The model, such as sonnet, opus or a full model name.", valueName: "model"))
    var model: String?

    @Option(
        name: .customLong("claude"),
        help: ArgumentHelp("The Claude Code program on the box (default claude; env RWS_CLAUDE).", valueName: "path"))
    var claudeProgram: String?

    /// Whether any of these options was given.
    var isGiven: Bool { resume != nil || continueMostRecent || permissionMode != nil || model != nil || claudeProgram != nil }

    func validate() throws {
        if resume != nil, continueMostRecent { throw ValidationError("--resume and --continue exclude each other") }
        _ = try mode()
    }

    func mode() throws -> ClaudePermissionMode? {
        guard let permissionMode else { return nil }
        guard !permissionMode.isEmpty else { throw ValidationError("--permission-mode needs a mode, such as " + Self.knownModes) }
        return ClaudePermissionMode(rawValue: permissionMode)
    }

    static let knownModes = ClaudePermissionMode.known.map(\.rawValue).joined(separator: ", ")

    /// Warns on stderr when the mode is not one rws knows: passed on, the box's Claude Code decides.
    func warnAboutUnknownMode() {
        guard let permissionMode, !ClaudePermissionMode.known.contains(ClaudePermissionMode(rawValue: permissionMode)) else { return }
        Terminal.err(
            "rws: warning: permission mode \"\(permissionMode.safeLine)\" is not one rws knows (\(Self.knownModes)); "
                + "passing it on to Claude Code on the box\n")
    }

    /// Says on stderr, before Claude Code's own UI starts, what the chosen mode means for its
    /// permission questions when some will never be asked (`rws ask` says it from the session's
    /// start instead, whatever chose the mode).
    func noteQuestionlessMode() {
        guard let permissionMode, let note = ClaudePermissionMode(rawValue: permissionMode).questionNote else { return }
        Terminal.err("rws: Claude Code runs in permission mode \(permissionMode.safeLine): \(note)\n")
    }

    /// `options` resolved on the box (a session prefix to its id and directory) with the directory
    /// and `files` checked there, before anything runs: `rws ask` and `rws claude` fail alike
    /// (``ClaudeConversationError/directoryNotFound(_:)``, exit 1) when the directory is missing.
    static func prepare(
        _ options: ClaudeConversationOptions, files: [String] = [], on ssh: SSHConnection
    ) async throws -> ClaudeConversationOptions {
        let resolved = try await options.resolved(on: ssh)
        try await resolved.check(on: ssh, files: files)
        return resolved
    }

    /// The library options; a project name means a folder of the workspace root, a path (with
    /// `/` or `~`) is used as is, none means the remote home (or the resumed session's directory).
    func options(project: String?, locations: WorkspaceLocations) throws -> ClaudeConversationOptions {
        let directory = project.map(locations.directory(ofProject:))
        var options = ClaudeConversationOptions(
            directory: directory, start: resume.map(ClaudeConversationStart.resume) ?? (continueMostRecent ? .continueMostRecent : .new),
            permissionMode: try mode(), model: model, locations: locations)
        if let program = claudeProgram ?? ProcessEnvironment.current["RWS_CLAUDE"], !program.isEmpty {
            options.claudeExecutable = program
        }
        return options
    }
}
