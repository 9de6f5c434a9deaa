import SSHClient

extension ProjectReview {
    /// Stages `paths` (changes, new files and deletions), exactly as named.
    public func stage(_ paths: [GitPath]) async throws {
        try await act("stage", on: paths, operation: "staging")
    }

    /// Takes `paths` out of the index (back to HEAD); the work tree keeps the changes.
    public func unstage(_ paths: [GitPath]) async throws {
        try await act("unstage", on: paths, operation: "unstaging")
    }

    /// Throws away every change to `paths`: tracked files go back to HEAD in the index and the
    /// work tree, untracked ones are removed. Nothing outside the repository is touched (git
    /// refuses such paths: ``ReviewError/invalidPath(_:reason:)``). Irreversible: ask first.
    public func discard(_ paths: [GitPath]) async throws {
        try Self.requireSome(paths)
        let untracked = Set(try await status().untracked.map(\.path))
        let (new, tracked) = (paths.filter { untracked.contains($0) }, paths.filter { !untracked.contains($0) })
        if !tracked.isEmpty { try await act("restore", on: tracked, operation: "discarding changes") }
        if !new.isEmpty { try await act("clean", on: new, operation: "removing untracked files") }
    }

    /// Commits what is staged with `message`; returns the new commit's id.
    public func commit(message: String) async throws -> String {
        guard !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ReviewError.invalidPath("", reason: "a commit needs a message")
        }
        let result = try await run(ReviewScripts.commit, [], operation: "committing", input: Array(message.utf8))
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pushes (`git push REMOTE REFSPEC...`, or the branch's upstream when both are left out),
    /// reporting git's progress as it comes. A remote that wants credentials the box does not
    /// have fails at once with ``ReviewError/authenticationRequired(remote:detail:)``.
    public func push(remote: String? = nil, refspecs: [String] = [], onEvent: @Sendable (CloneEvent) -> Void = { _ in }) async throws {
        for word in [remote].compactMap({ $0 }) + refspecs {
            guard !word.hasPrefix("-"), !word.isEmpty else {
                throw ReviewError.invalidRevision(word, reason: "it would be read as an option")
            }
        }
        let arguments = ([remote].compactMap { $0 } + refspecs).map(RemoteScript.Argument.word)
        let stream = try ReviewScripts.push.start(on: host, [.path(directory)] + arguments)
        var parser = GitProgressParser()
        for try await chunk in stream.output {
            if case .stderr(let bytes) = chunk { parser.consume(bytes).forEach(onEvent) }
        }
        parser.finish().forEach(onEvent)
        let status = try await stream.exitStatus()
        guard !status.isSuccess else { return }
        let detail =
            parser.recentMessages.last { $0.hasPrefix("fatal:") || $0.hasPrefix("error:") } ?? parser.recentMessages.last ?? "no message"
        if status.scriptExit(ReviewScriptExit.self) == .authenticationRequired {
            throw ReviewError.authenticationRequired(remote: remote ?? "the upstream", detail: detail)
        }
        throw Self.error(for: status, operation: "pushing", directory: directory, detail: detail)
    }

    private func act(_ action: String, on paths: [GitPath], operation: String) async throws {
        try Self.requireSome(paths)
        let input: [UInt8] = paths.flatMap { path -> [UInt8] in path.bytes + [0] }
        _ = try await run(ReviewScripts.paths, [.word(action)], operation: operation, input: input)
    }

    private static func requireSome(_ paths: [GitPath]) throws {
        guard !paths.isEmpty else { throw ReviewError.invalidPath("", reason: "name at least one path") }
        if let empty = paths.first(where: { $0.bytes.isEmpty || $0.bytes.contains(0) }) {
            throw ReviewError.invalidPath(empty.description, reason: "it is empty or holds a NUL byte")
        }
    }
}
