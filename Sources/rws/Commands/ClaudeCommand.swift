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
            Keys, Ctrl+C included, go to Claude Code; the escapes of rws shell work (~. disconnects).

            Exit status: Claude Code's; 255 after ~. or when the connection failed.

            Examples:
              rws claude --host box app
              rws claude --host box --continue app
              rws claude --host box --resume 0b1c
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box.")
    var project: String?

    @OptionGroup var start: ClaudeStartOptions

    func run() async throws {
        await runReportingErrors {
            guard Terminal.isTTY(STDIN_FILENO) else {
                throw CLIError.usage("rws claude needs a terminal; use rws ask to talk to Claude Code without one")
            }
            let options = try start.options(project: project, locations: workspace.locations())
            start.warnAboutUnknownMode()
            return try await connection.withConnection { ssh in
                let command = try await ClaudeStartOptions.prepare(options, on: ssh).interactiveCommandLine()
                return try await RemoteTerminal.run(command, on: ssh)
            }
        }
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
        if let program = claudeProgram ?? ProcessInfo.processInfo.environment["RWS_CLAUDE"], !program.isEmpty {
            options.claudeExecutable = program
        }
        return options
    }
}
