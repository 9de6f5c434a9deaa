import Foundation

extension ResolvedHost {
    /// The settings as `key value` lines in the style of `ssh -G`: lower-case
    /// keys, one `identityfile` line per file, known-hosts files on one line
    /// separated by spaces, `none` for an unset timeout or agent. This is what
    /// `rws config show --host NAME` prints.
    public var keyValueLines: [String] {
        let scalar: [(SettingKey, String)] = [
            (.host, host),
            (.hostname, hostName),
            (.user, user),
            (.port, String(port)),
        ]
        let rest: [(SettingKey, String)] = [
            (.identitiesonly, identitiesOnly ? "yes" : "no"),
            (.userknownhostsfile, userKnownHostsFiles.joined(separator: " ")),
            (.stricthostkeychecking, strictHostKeyChecking.rawValue),
            (.connecttimeout, connectTimeout.map(String.init) ?? "none"),
            (.serveraliveinterval, String(serverAliveInterval)),
            (.serveralivecountmax, String(serverAliveCountMax)),
            (.identityagent, agentSocket ?? "none"),
        ]
        let identities = identityFiles.map { (SettingKey.identityfile, $0) }
        // Printed only when set, as `ssh -G` does.
        let jumps = proxyJump.isEmpty ? [] : [(SettingKey.proxyjump, JumpHosts.format(proxyJump))]
        return (scalar + identities + rest + jumps).map { "\($0.rawValue) \($1)" }
    }

    /// The settings as pretty-printed JSON with sorted keys (all fields,
    /// including ``origins`` and ``warnings``).
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
