extension Resolution {
    /// Resolves one jump host (`ProxyJump`, `-J`) as a host of its own: its config entry applies,
    /// and so do the credential and host key overrides (identity files, known hosts, host key
    /// policy, timeouts), but not the target's user, port or jump hosts, from `flags` or from
    /// `RWS_HOST`, `RWS_USER`, `RWS_PORT`, `RWS_PROXY_JUMP`. A jump host's own `ProxyJump` is not
    /// followed: `-J` and `ProxyJump` list the whole chain.
    ///
    /// - Parameters:
    ///   - hop: The jump host as `ProxyJump` or `-J` names it.
    ///   - flags: The overrides the target was resolved with.
    ///   - environment: The environment the target was resolved with.
    ///   - local: The local machine and user.
    public static func resolveJumpHost(
        _ hop: HostArgument, flags: SettingOverrides, environment: [String: String], local: LocalContext
    ) throws -> ResolvedHost {
        var hopFlags = flags
        hopFlags.host = hop
        hopFlags.user = nil
        hopFlags.port = nil
        hopFlags.proxyJump = []
        var hopEnvironment = environment
        for name in ["RWS_HOST", "RWS_USER", "RWS_PORT", "RWS_PROXY_JUMP"] { hopEnvironment[name] = nil }
        return try resolve(flags: hopFlags, environment: hopEnvironment, local: local)
    }
}
