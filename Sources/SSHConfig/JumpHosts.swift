/// The value of `ProxyJump` (and of `rws -J`): jump hosts, first hop first, each
/// `[USER@]HOST[:PORT]` or `ssh://[USER@]HOST[:PORT]`, separated by commas; `none`
/// says "no jump host" (and so overrides a later `Host *` block, as in `ssh`).
public enum JumpHosts {
    /// What a `ProxyJump` error says is accepted.
    public static let expectation = "none, or comma-separated [user@]host[:port] (or ssh://[user@]host[:port]) jump hosts"

    /// The hops in `text`, `[]` for `none`, or nil when a hop cannot be read.
    public static func parse(_ text: String) -> [HostArgument]? {
        if text.lowercased() == "none" { return [] }
        var hops: [HostArgument] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var hop = Substring(part)
            if hop.hasPrefix("ssh://") { hop = hop.dropFirst(6) }
            if hop.hasSuffix("/") { hop = hop.dropLast() }
            guard !hop.isEmpty, let argument = try? HostArgument(parsing: String(hop)) else { return nil }
            hops.append(argument)
        }
        return hops
    }

    /// The hops as `ProxyJump` writes them: `user@host:port,host2`; `none` when there are none.
    public static func format(_ hops: [HostArgument]) -> String {
        hops.isEmpty ? "none" : hops.map(\.description).joined(separator: ",")
    }
}
