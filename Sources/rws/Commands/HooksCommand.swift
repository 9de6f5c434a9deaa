import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient
import SessionHistory

struct HooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Install, inspect or remove rws's Claude Code hooks on the box (for rws watch).",
        discussion: """
            The hooks make every Claude Code session on the box (started by rws or by hand, in a tmux or not) write one line \
            per event (started, prompt sent, permission asked, waiting for input, finished, ended) to a spool that rws watch \
            follows, and let a watching rws answer permission requests. Installed: one entry per event in Claude Code's \
            settings, after your own hooks (nothing of yours is dropped or reordered; the previous file is kept as \
            settings.json.rws-backup), and the folder <claude dir>/rws/ with the hook script (POSIX sh, no jq or python) and \
            the spool (at most about 2 MB). Claude Code reads its settings when a session starts: sessions already running \
            do not have the hooks.

            remove takes out exactly what install added; when nothing else in the file changed since, the file is restored \
            byte for byte. A settings file that is not valid JSON is never written.

            Examples:
              rws hooks install --host box
              rws hooks status --host box
              rws hooks install --host box --project app   (app/.claude/settings.local.json only)
              rws hooks remove --host box
            """,
        subcommands: [Install.self, Status.self, Remove.self]
    )

    /// What the three subcommands share: the connection, where Claude Code keeps its data, and the level.
    struct Target: ParsableArguments {
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var workspace: WorkspaceOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Use this project's .claude/settings.local.json instead of the user-level settings (a name or a path on the box).",
                valueName: "project"))
        var project: String?

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run(_ body: @escaping (ClaudeHooks) async throws -> Int32) async throws {
            try await run { hooks, _ in try await body(hooks) }
        }

        func run(_ body: @escaping (ClaudeHooks, SSHConnection) async throws -> Int32) async throws {
            try await runReportingErrors(json: json) {
                try await connection.withConnection { ssh in
                    try await body(ClaudeHooks(connection: ssh, locations: workspace.locations()), ssh)
                }
            }
        }
    }

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install", abstract: "Add rws's hooks to Claude Code's settings on the box (again: updates them).",
            discussion: """
                Examples:
                  rws hooks install --host box
                  rws hooks install --host box --project app
                  rws hooks install --host box --claude-dir ~/.config/claude
                """)

        @OptionGroup var target: Target

        func run() async throws {
            try await target.run { hooks in
                let change = try await hooks.install(project: target.project)
                HooksCommand.report(change, json: target.json)
                if !target.json, case .installed = change {
                    Terminal.err("rws: sessions started from now on report to rws watch; running ones need a restart\n")
                }
                return 0
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Say whether rws's hooks are installed, how big the spool is, and which standing permissions rws granted.",
            discussion: """
                Standing permissions: every grant kept in a settings file that was given through rws (rws ask, rws watch: \
                a rule, a working folder or a mode, chosen by its number at a question) is noted on the box and listed here \
                with the file that keeps it, whether the file still holds it, and what to take out of it to revoke it (or \
                /permissions in Claude Code). Grants for the session end with the session and are not listed.

                Exit status: 0 when every hook is installed and current, 3 when some are missing or outdated.

                Examples:
                  rws hooks status --host box
                  rws hooks status --host box --json
                """)

        @OptionGroup var target: Target

        func run() async throws {
            try await target.run { hooks, ssh in
                let status = try await hooks.status(project: target.project)
                let grants = try await ClaudeStandingGrants(connection: ssh).list()
                if target.json {
                    let object = JSONValue.object([
                        "complete": .bool(status.isComplete), "folder": .string(status.hookFolder + "/rws"),
                        "hookScriptIsCurrent": .bool(status.hookScriptIsCurrent), "installed": .strings(status.installedEvents),
                        "missing": .strings(status.missingEvents), "outdated": .strings(status.outdatedEvents),
                        "settings": .string(status.settingsPath), "spoolBytes": .number(Double(status.spoolBytes)),
                        "standingGrants": .array(grants.map(HooksCommand.json)),
                    ])
                    Terminal.out(JSONWriter.string(from: object) + "\n")
                } else {
                    Terminal.out(HooksCommand.describe(status) + HooksCommand.describe(grants))
                }
                return status.isComplete ? 0 : 3
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take rws's hooks out of Claude Code's settings on the box, and the hook's folder.",
            discussion: """
                Examples:
                  rws hooks remove --host box
                  rws hooks remove --host box --project app
                """)

        @OptionGroup var target: Target

        func run() async throws {
            try await target.run { hooks in
                HooksCommand.report(try await hooks.remove(project: target.project), json: target.json)
                return 0
            }
        }
    }

    static func describe(_ status: ClaudeHooksStatus) -> String {
        var lines = ["settings: \(status.settingsPath.safeLine)", "hook folder: \(status.hookFolder.safeLine)/rws"]
        if status.installedEvents.isEmpty {
            lines.append("not installed: run rws hooks install")
        } else {
            lines.append("installed for: \(status.installedEvents.joined(separator: ", "))")
            if !status.missingEvents.isEmpty {
                lines.append("missing: \(status.missingEvents.joined(separator: ", ")) (run rws hooks install)")
            }
        }
        if !status.outdatedEvents.isEmpty {
            lines.append("from an older rws: \(status.outdatedEvents.joined(separator: ", ")) (run rws hooks install to update)")
        }
        if !status.installedEvents.isEmpty, !status.hookScriptIsCurrent {
            lines.append("the hook script is missing or from another rws version (run rws hooks install)")
        }
        lines.append("spool: \(status.spoolBytes) bytes")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The standing grants, each with where it is kept, whether it is in force and how to revoke it.
    static func describe(_ grants: [ClaudeStandingGrant]) -> String {
        guard !grants.isEmpty else { return "standing permissions granted through rws: none\n" }
        let time = DateFormatter()
        time.dateFormat = "yyyy-MM-dd HH:mm"
        var text = "standing permissions granted through rws (\(grants.count)):\n"
        for (index, standing) in grants.enumerated() {
            let state = standing.isInForce.map { $0 ? "in force" : "no longer in the file" } ?? "rws cannot tell"
            text +=
                "  \(index + 1). \(standing.grant.what.safeLine) (\(standing.client.safeLine), \(time.string(from: standing.time)), "
                + "\(standing.directory.safeLine)): \(state)\n"
            text += "     kept in \(standing.settingsPath.safeLine)"
            text += standing.isInForce == false ? "\n" : "; to revoke, \(standing.revocation.safeLine)\n"
        }
        return text
    }

    static func json(_ standing: ClaudeStandingGrant) -> JSONValue {
        .object([
            "what": .string(standing.grant.what), "allows": .string(standing.grant.allows), "update": standing.grant.update,
            "client": .string(standing.client), "at": .number(standing.time.timeIntervalSince1970),
            "directory": .string(standing.directory), "settings": .string(standing.settingsPath),
            "inForce": standing.isInForce.map(JSONValue.bool) ?? .null, "revoke": .string(standing.revocation),
        ])
    }

    static func report(_ change: ClaudeHooksChange, json: Bool) {
        let (action, path, detail): (String, String, String)
        switch change {
        case .installed(let settings, let backup):
            (action, path, detail) = ("installed", settings, backup.map { "previous file kept as \($0)" } ?? "new file")
        case .removed(let settings, let restored):
            (action, path, detail) = ("removed", settings, restored ? "restored byte for byte from its backup" : "rws's entries taken out")
        case .unchanged(let settings):
            (action, path, detail) = ("unchanged", settings, "nothing to do")
        }
        if json {
            let object = JSONValue.object(["action": .string(action), "detail": .string(detail), "settings": .string(path)])
            Terminal.out(JSONWriter.string(from: object) + "\n")
        } else {
            Terminal.out("\(action): \(path.safeLine) (\(detail.safeLine))\n")
        }
    }
}
