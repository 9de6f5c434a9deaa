/// Settings for ``ProjectManager/cloneProject(from:name:branch:depth:options:onEvent:)``.
public struct CloneOptions: Sendable, Equatable {
    /// Accept `file://` addresses and paths on the box. Off by default: a path names the box's own files.
    public var allowLocal: Bool
    /// How long the clone may print nothing before it is stopped as stalled.
    public var stallTimeout: Duration
    /// Extra `ssh` options for git's SSH transport on the box, each passed as `-o OPTION`
    /// (e.g. `UserKnownHostsFile=/path`). `BatchMode=yes` always comes first and cannot be undone.
    public var sshOptions: [String]

    /// The defaults: no local sources, stalled after 60 seconds without output, no extra ssh options.
    public init(allowLocal: Bool = false, stallTimeout: Duration = .seconds(60), sshOptions: [String] = []) {
        self.allowLocal = allowLocal
        self.stallTimeout = stallTimeout
        self.sshOptions = sshOptions
    }
}
