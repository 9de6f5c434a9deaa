import SSHClient

extension ProjectManager {
    /// Clones a repository into a new project on the box, reporting git's progress, and registers
    /// it with Claude Code.
    ///
    /// git runs on the box and never waits on a prompt. It clones into a hidden temporary sibling
    /// that is renamed into place only on success; when the clone fails, stalls, or the calling
    /// task is cancelled, the remote process group is stopped and the temporary directory removed
    /// before this returns.
    ///
    /// - Parameters:
    ///   - url: Checked by ``CloneSource`` (https, ssh://, scp-like; local only with ``CloneOptions/allowLocal``).
    ///   - name: The project name; derived from `url` when nil. Checked with ``ProjectName/validateNew(_:)``.
    ///   - branch: Branch or tag to check out (`--branch`).
    ///   - depth: Shallow clone of this many commits (`--depth`); at least 1.
    ///   - options: Local sources, stall timeout, ssh options.
    ///   - onEvent: Called with each progress update and message, in order.
    /// - Throws: ``ProjectError`` naming the cause: invalid input, ``ProjectError/destinationExists(path:)``,
    ///   ``ProjectError/repositoryNotFound(url:detail:)``, ``ProjectError/authenticationRequired(url:detail:)``,
    ///   ``ProjectError/hostKeyUnknown(url:detail:)``, ``ProjectError/stalled(url:after:)``,
    ///   ``ProjectError/cancelled(url:)``...; `SSHError` when the connection fails.
    public func cloneProject(
        from url: String, name: String? = nil, branch: String? = nil, depth: Int? = nil,
        options: CloneOptions = CloneOptions(),
        onEvent: @Sendable (CloneEvent) -> Void = { _ in }
    ) async throws -> Project {
        let source = try CloneSource(url, allowLocal: options.allowLocal)
        guard let projectName = name ?? source.derivedName else { throw ProjectError.cannotDeriveName(url: url) }
        try ProjectName.validateNew(projectName)
        if let branch { try BranchName.validate(branch) }
        if let depth, depth < 1 { throw ProjectError.invalidDepth(depth) }
        let clone = CloneScript(source: source, locations: locations, name: projectName, branch: branch, depth: depth, options: options)
        let cloned = try await CloneRunner(host: host, clone: clone).run(onEvent: onEvent)
        return try await registered(name: projectName, path: cloned.path, branch: cloned.branch, isGitRepository: true)
    }
}
