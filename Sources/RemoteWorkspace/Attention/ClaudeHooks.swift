import SSHClient
import SessionHistory

/// rws's hooks in Claude Code's settings on the box: install, inspect, remove.
///
/// The user-level settings (`<claude dir>/settings.json`) or a project's
/// `.claude/settings.local.json` get one hook entry per event of ``ClaudeHookSettings/events``,
/// after the user's own; the hook script and its event spool live in `<claude dir>/rws/`.
/// The settings file is read, edited here (its keys and hooks keep their order) and written back
/// only if it did not change meanwhile, the previous version kept as `FILE.rws-backup`. A file
/// that is not valid JSON is never written.
public struct ClaudeHooks: Sendable {
    private let host: any ScriptHost
    private let locations: WorkspaceLocations

    /// Hooks on the box of `connection`, in the first of `locations.claudeDirectories` that exists.
    public init(connection: SSHConnection, locations: WorkspaceLocations = WorkspaceLocations()) {
        self.init(host: connection, locations: locations)
    }

    /// Hooks wherever `host` runs scripts, in the first of `locations.claudeDirectories` that exists.
    package init(host: any ScriptHost, locations: WorkspaceLocations = WorkspaceLocations()) {
        self.host = host
        self.locations = locations
    }

    /// What is installed where.
    ///
    /// - Parameter project: A project name or path on the box for its `.claude/settings.local.json`;
    ///   nil for the user-level settings.
    public func status(project: String? = nil) async throws -> ClaudeHooksStatus {
        let state = try await inspect(project: project)
        let settings = try state.parsedSettings()
        let current = try ClaudeHookSettings(hookPath: state.hookPath)
        let installed = current.installedEvents(in: settings)
        return ClaudeHooksStatus(
            settingsPath: state.settingsPath, hookFolder: state.folder,
            installedEvents: installed, missingEvents: ClaudeHookSettings.events.filter { !installed.contains($0) },
            outdatedEvents: ClaudeHookSettings.outdatedEvents(in: settings, current: current),
            hookScriptIsCurrent: state.hookText == ClaudeHookScript.fileText, spoolBytes: state.spoolBytes)
    }

    /// Adds rws's hooks (and updates an older install); nothing is written when all are there.
    public func install(project: String? = nil) async throws -> ClaudeHooksChange {
        let state = try await inspect(project: project)
        let settings = try state.parsedSettings()
        let current = try ClaudeHookSettings(hookPath: state.hookPath)
        let edited = try state.checked { () throws(ClaudeHooksError) in try current.installing(into: settings) }
        if edited == settings, state.hookText == ClaudeHookScript.fileText {
            return .unchanged(settingsPath: state.settingsPath)
        }
        let text = edited == settings && state.contents != nil ? state.contents ?? [] : Self.text(of: edited, like: state.contents)
        try await write(text, mode: "install", state: state, project: project)
        return .installed(settingsPath: state.settingsPath, backupPath: state.contents == nil ? nil : state.settingsPath + ".rws-backup")
    }

    /// Takes out what ``install(project:)`` added: rws's hook entries and, at user level, the
    /// hook's folder. When nothing else changed since the install, the file is restored byte for
    /// byte from its backup.
    public func remove(project: String? = nil) async throws -> ClaudeHooksChange {
        let state = try await inspect(project: project)
        guard let settings = try state.parsedSettings() else {
            if state.hookText == nil { return .unchanged(settingsPath: state.settingsPath) }
            try await write(nil, mode: "remove", state: state, project: project)
            return .removed(settingsPath: state.settingsPath, restoredBackup: false)
        }
        let pruned = try state.checked { () throws(ClaudeHooksError) in try ClaudeHookSettings.removing(from: settings) }
        if pruned == settings, state.hookText == nil || project != nil { return .unchanged(settingsPath: state.settingsPath) }
        let backup = state.backup.flatMap { try? JSONValue(parsing: $0) }
        let restore = backup != nil && backup == pruned
        // A file that only install made goes away again (empty input: the script deletes it).
        let madeByInstall = state.backup == nil && pruned == .object(JSONObject())
        let text =
            restore
            ? state.backup ?? []
            : madeByInstall ? [] : pruned == settings ? state.contents ?? [] : Self.text(of: pruned, like: state.contents)
        try await write(text, mode: "remove", state: state, project: project)
        return .removed(settingsPath: state.settingsPath, restoredBackup: restore)
    }

    /// `value` as Claude Code writes settings (two-space indentation), ending in a newline when the
    /// original did (or there was none).
    static func text(of value: JSONValue, like original: [UInt8]?) -> [UInt8] {
        let newline = original.map { $0.last == UInt8(ascii: "\n") } ?? true
        return Array((JSONWriter.string(from: value, pretty: true) + (newline ? "\n" : "")).utf8)
    }

    private func write(_ text: [UInt8]?, mode: String, state: State, project: String?) async throws {
        _ = try await ClaudeHookScripts.write.run(
            on: host,
            [
                .word(state.folder), .word(state.settingsPath), .word(state.checksum ?? "absent"), .word(mode),
                .word(ClaudeHookScript.fileText), .word(project == nil ? "user" : "project"),
            ],
            input: text ?? [], failure: { Self.failure($0, step: ClaudeHookScripts.write.step, path: state.settingsPath) })
    }

    /// What a hook script's failing status means for the settings file at `path`.
    private static func failure(_ result: CommandResult, step: String, path: String) -> ClaudeHooksError {
        switch result.status.scriptExit(ClaudeHookScripts.Exit.self) {
        case .changedMeanwhile: return .changedMeanwhile(path: path)
        case .projectNotFound: return .projectNotFound(path: path)
        case .noSpace: return .noSpace(path: path)
        case .writeFailed, .notWaiting, .answeredAlready, nil:
            return .remoteCommandFailed(step: step, status: result.status.description, detail: result.stderrText.safeDetail)
        }
    }

    func inspect(project: String?) async throws -> State {
        let directory = project.map(locations.directory(ofProject:))
        let boundary = SectionReader.makeBoundary()
        let arguments: [RemoteScript.Argument] =
            [.word(boundary), directory.map(RemoteScript.Argument.path) ?? .word("")] + locations.claudeDirectories.map { .path($0) }
        let result = try await ClaudeHookScripts.inspect.run(on: host, arguments) {
            Self.failure($0, step: ClaudeHookScripts.inspect.step, path: directory ?? "")
        }
        var reader = SectionReader(boundary: boundary)
        let sections = reader.feed(result.stdout) + reader.finish()
        return try State(sections: sections)
    }

    /// What the inspect script found.
    struct State {
        var folder = ""
        var settingsPath = ""
        var contents: [UInt8]?
        var checksum: String?
        var backup: [UInt8]?
        var hookText: String?
        var spoolBytes = 0
        /// The current spool's identity and size, when it exists.
        var spool: (identity: String, size: Int)?

        var hookPath: String { folder + "/rws/hook.sh" }

        init(sections: [OutputSection]) throws(ClaudeHooksError) {
            guard sections.last?.header == "end" else {
                throw .remoteCommandFailed(
                    step: ClaudeHookScripts.inspect.step, status: "cut short", detail: "the output ended before its end marker")
            }
            for section in sections {
                let words = section.fields(1)
                let rest = words.count > 1 ? words[1] : ""
                switch words[0] {
                case "dir": folder = String(decoding: section.content, as: UTF8.self)
                case "settings": settingsPath = String(decoding: section.content, as: UTF8.self)
                case "content":
                    contents = section.content
                    checksum = rest
                case "backup": backup = section.content
                case "hook": hookText = String(decoding: section.content, as: UTF8.self)
                case "spool": spoolBytes = Int(rest.trimmingCharacters(in: .whitespaces)) ?? 0
                case "current":
                    let parts = rest.split(separator: " ")
                    if parts.count == 2, let size = Int(parts[1]) { spool = (String(parts[0]), size) }
                default: break
                }
            }
        }

        /// The settings, nil when the file is missing or empty.
        func parsedSettings() throws(ClaudeHooksError) -> JSONValue? {
            guard let contents, !contents.isEmpty else { return nil }
            do {
                return try JSONValue(parsing: contents)
            } catch {
                throw .invalidSettings(path: settingsPath, reason: error.description)
            }
        }

        /// `edit`'s result, its errors naming the settings file.
        func checked(_ edit: () throws(ClaudeHooksError) -> JSONValue) throws(ClaudeHooksError) -> JSONValue {
            do {
                return try edit()
            } catch .unexpectedSettings(_, let reason) {
                throw .unexpectedSettings(path: settingsPath, reason: reason)
            }
        }
    }
}

extension String {
    /// Remote stderr in one line, for an error message.
    fileprivate var safeDetail: String {
        split(whereSeparator: \.isNewline).joined(separator: "; ").trimmingCharacters(in: .whitespaces)
    }
}
