/// `~` and `%` token expansion as `ssh` applies it to `HostName`,
/// `IdentityFile` and `UserKnownHostsFile`.
public enum TokenExpansion {
    /// The values of the path tokens OpenSSH 9.2 offers for `IdentityFile` and
    /// `UserKnownHostsFile`: `%C %d %h %i %k %L %l %n %p %r %u`. `%k` is the host
    /// as given, since rws does not read `HostKeyAlias`.
    public static func pathTokens(
        local: LocalContext, hostName: String, originalHost: String, port: Int, remoteUser: String
    ) -> [Character: String] {
        let shortHost = local.hostName.split(separator: ".", maxSplits: 1).first.map(String.init) ?? local.hostName
        return [
            "C": SHA1.hexDigest(local.hostName + hostName + String(port) + remoteUser),
            "d": local.home,
            "h": hostName,
            "i": String(local.userID),
            "k": originalHost,
            "L": shortHost,
            "l": local.hostName,
            "n": originalHost,
            "p": String(port),
            "r": remoteUser,
            "u": local.userName,
        ]
    }

    /// Replaces `%X` tokens in `text` with `tokens[X]` and `%%` with `%`.
    /// A token not in `tokens`, or a `%` at the end, is an error naming `keyword`.
    public static func expand(_ text: String, tokens: [Character: String], keyword: String) throws -> String {
        var result = ""
        var iterator = text.makeIterator()
        while let char = iterator.next() {
            guard char == "%" else {
                result.append(char)
                continue
            }
            guard let token = iterator.next() else {
                throw SSHConfigError.unknownToken(token: "%", keyword: keyword, value: text)
            }
            if token == "%" {
                result.append("%")
            } else if let value = tokens[token] {
                result += value
            } else {
                throw SSHConfigError.unknownToken(token: "%" + String(token), keyword: keyword, value: text)
            }
        }
        return result
    }

    /// Expands a leading `~` or `~/` to `home`. `~user` forms are left alone
    /// (rws does not look up other users' home directories).
    public static func expandTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// `~` first, then `%` tokens: the order `ssh` uses for file names.
    static func expandPath(_ path: String, tokens: [Character: String], home: String, keyword: String) throws -> String {
        try expand(expandTilde(path, home: home), tokens: tokens, keyword: keyword)
    }
}
