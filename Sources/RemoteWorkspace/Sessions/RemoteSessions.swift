import SSHClient
import SessionHistory

/// The Claude Code sessions on a box: list, open, follow live, rename, delete — with nothing on
/// the box but sshd and a POSIX shell.
///
/// ```swift
/// let sessions = RemoteSessions(connection: connection, cache: SessionListingCache(for: connection.configuration))
/// for session in try await sessions.listSessions() { print(session.id, session.summary.title ?? "") }
/// let opened = try await sessions.loadSession("0b1c")          // a unique prefix is enough
/// print(opened.render(.text))
/// for try await event in try sessions.follow(opened) { ... }    // goes on from what was loaded
/// ```
public final class RemoteSessions: Sendable {
    /// Where every command runs: the box behind an SSH connection, or this machine (tests).
    package let host: any ScriptHost
    /// The connection every command runs on; nil for sessions on this machine.
    public var connection: SSHConnection? { host as? SSHConnection }
    /// Where Claude Code keeps its data on the box.
    public let locations: WorkspaceLocations
    /// The local listing cache; nil lists without one (everything is read every time).
    public let cache: SessionListingCache?
    /// How much of each file a listing reads.
    public let options: SessionListingOptions
    /// The link's rate as the first big load measured it (``TransferCompression/automatic``).
    let linkRate = LinkRate()

    /// The link's rate in bytes per second as the first big load measured it; nil until a load
    /// with ``TransferCompression/automatic`` has timed it (infinite when too fast to time).
    public var measuredLinkRate: Double? { linkRate.measured }

    /// Sessions of the box behind `connection`.
    public convenience init(
        connection: SSHConnection, locations: WorkspaceLocations = WorkspaceLocations(),
        cache: SessionListingCache?, options: SessionListingOptions = SessionListingOptions()
    ) {
        self.init(host: connection, locations: locations, cache: cache, options: options)
    }

    /// Sessions of the Claude data directories in `locations` wherever `host` runs scripts.
    package init(
        host: any ScriptHost, locations: WorkspaceLocations = WorkspaceLocations(), cache: SessionListingCache?,
        options: SessionListingOptions = SessionListingOptions()
    ) {
        self.host = host
        self.locations = locations
        self.cache = cache
        self.options = options
    }

    /// Lists sessions with what the listing cost.
    ///
    /// - Parameters:
    ///   - project: nil for every project; else a project folder name (`-home-me-app`), an
    ///     absolute path on the box, a `~/` path, or a project name in the workspace root.
    ///   - includeUnlisted: also list files Claude Code's picker hides (no title, sidechain).
    public func listing(project: String? = nil, includeUnlisted: Bool = false) async throws -> SessionListing {
        try await listing(
            projectPattern: try ProjectPattern.pattern(for: project, workspaceRoot: locations.workspaceRoot),
            includeUnlisted: includeUnlisted)
    }

    /// Lists the project folders matching `projectPattern` (globs over folder names, one per line).
    func listing(projectPattern: String, includeUnlisted: Bool) async throws -> SessionListing {
        let lister = SessionLister(host: host, folders: locations.claudeProjectFolders, cache: cache, options: options)
        return try await lister.list(projectPattern: projectPattern, includeUnlisted: includeUnlisted)
    }

    /// The sessions of one project or of all, newest first, subagent files attached to their session.
    public func listSessions(project: String? = nil) async throws -> [RemoteSessionListing] {
        try await listing(project: project).sessions
    }

    /// The session with this id, or the only one whose id starts with it.
    ///
    /// - Throws: ``RemoteSessionError/sessionNotFound(id:)``, ``RemoteSessionError/ambiguousSessionId(prefix:candidates:)``.
    public func findSession(_ id: String) async throws -> RemoteSessionListing {
        guard !id.isEmpty, !id.contains("/") else { throw RemoteSessionError.invalidName(id, reason: "a session id has no '/'") }
        let all = try await listing(includeUnlisted: true).sessions
        let exact = all.filter { $0.id == id }
        let matches = exact.isEmpty ? all.filter { $0.id.hasPrefix(id) } : exact
        guard let first = matches.first else { throw RemoteSessionError.sessionNotFound(id: id) }
        guard matches.count == 1 else {
            throw RemoteSessionError.ambiguousSessionId(prefix: id, candidates: matches.map { "\($0.id) (\($0.projectFolder))" })
        }
        return first
    }

    /// Reads a session and its subagent files (ranged reads of the sizes listed) into its conversation.
    public func loadSession(_ id: String, options: ConversationOptions = ConversationOptions()) async throws -> RemoteSession {
        try await load(try await findSession(id), options: SessionLoadOptions(conversation: options))
    }

    /// Reads only the last `last` messages of a session: backwards from the end of its file,
    /// compressed on the box when it has gzip (see ``SessionLoadOptions``).
    public func loadSession(_ id: String, last: Int, options: ConversationOptions = ConversationOptions()) async throws -> RemoteSession {
        try await load(try await findSession(id), options: SessionLoadOptions(conversation: options, lastMessages: last))
    }

    /// Reads a listed session into its conversation, whole or its last messages.
    ///
    /// Cancelling the task stops the reading on the box and throws `CancellationError` once it is
    /// stopped: on a slow link, after the bytes already under way have come.
    public func load(_ listing: RemoteSessionListing, options: SessionLoadOptions = SessionLoadOptions()) async throws -> RemoteSession {
        try await endingWithCancellation { try await SessionLoader.load(listing, host: host, options: options, link: linkRate) }
    }

    /// Reads a listed session and its subagent files into its conversation.
    public func load(_ listing: RemoteSessionListing, options: ConversationOptions) async throws -> RemoteSession {
        try await load(listing, options: SessionLoadOptions(conversation: options))
    }

    /// The session as it is now, reading only what was appended since `previous` was loaded
    /// (from its ``RemoteSession/followOffset``); a replaced or truncated file is read again.
    /// One listing (cheap with the cache) and one read.
    public func reload(_ previous: RemoteSession, options: SessionLoadOptions = SessionLoadOptions()) async throws -> RemoteSession {
        try await endingWithCancellation {
            let listing = try await findSession(previous.listing.id)
            return try await SessionLoader.reload(previous, as: listing, host: host, options: options, link: linkRate)
        }
    }

    /// New conversation events as the session file grows, until the caller stops iterating or
    /// calls ``SessionFollow/stop()`` (which waits until the remote loop is gone).
    ///
    /// Appended bytes are read from the last offset every `pollInterval`; a line written in
    /// pieces is decoded when its end arrives; a truncated or replaced file starts over
    /// (``SessionFollowEvent/restarted(reason:)``).
    ///
    /// - Parameters:
    ///   - id: The session id, or a unique prefix of it.
    ///   - offset: where to start reading: a line start, such as
    ///     ``RemoteSession/followOffset``; nil starts at the end of the file as listed.
    ///   - pollInterval: How often the box checks the file for new bytes.
    public func followSession(
        _ id: String, from offset: Int? = nil, pollInterval: Duration = .milliseconds(250)
    ) async throws -> SessionFollow {
        let listing = try await findSession(id)
        return try follow(listing, from: offset ?? listing.file.size, pollInterval: pollInterval)
    }

    /// Follows a loaded session from where its load ended: the events go on from its
    /// conversation. New entries are numbered after its entries, and a response chunk or tool
    /// result that completes one of them is an `updated` event of that entry, so applying the
    /// events to `session.conversation.entries` gives what a load at that moment gives (for a
    /// session written on one branch). After ``SessionFollowEvent/restarted(reason:)`` (the file
    /// was replaced) the numbering starts again from 0.
    public func follow(_ session: RemoteSession, pollInterval: Duration = .milliseconds(250)) throws -> SessionFollow {
        try FollowScript.start(
            session.listing, from: session.followOffset, continuing: session.conversation, interval: pollInterval, host: host)
    }

    /// Follows a listed session from `offset` (see ``followSession(_:from:pollInterval:)``).
    public func follow(
        _ listing: RemoteSessionListing, from offset: Int, pollInterval: Duration = .milliseconds(250)
    ) throws -> SessionFollow {
        try FollowScript.start(listing, from: offset, interval: pollInterval, host: host)
    }

    /// Names the session as Claude Code's `/rename` does: appends one `custom-title` record in a
    /// single write, never rewriting the file, so Claude Code's picker shows the same title.
    ///
    /// - Returns: the session as it was before the rename.
    @discardableResult
    public func renameSession(_ id: String, title: String) async throws -> RemoteSessionListing {
        let listing: RemoteSessionListing
        do {
            listing = try await findSession(id)
        } catch let lost as SSHError where lost.linkLossReason != nil {
            throw RemoteSessionError.interrupted(
                operation: "finding session \(id)", reason: lost.linkLossReason ?? "\(lost)",
                boxState: "Nothing was changed. Run the same rename again.")
        }
        try await SessionEditing.rename(listing, title: title, host: host)
        return listing
    }

    /// Removes the session file and its `<id>/` folder (subagents, tool results), nothing else.
    ///
    /// - Returns: the session that was deleted.
    @discardableResult
    public func deleteSession(_ id: String) async throws -> RemoteSessionListing {
        let listing = try await findSession(id)
        try await SessionEditing.delete(listing, host: host)
        return listing
    }
}
