/// Whether the box's sshd itself holds the port it agreed to listen on for a remote forward.
///
/// Dropbear listens on "localhost" whatever address it is asked for: on `::1` first, then on
/// `127.0.0.1` with the same number, and it agrees when only the first worked. Where another
/// program holds `127.0.0.1` on that number (a free port chosen on `::1` alone), connections made
/// to the box's `127.0.0.1:PORT` reach that program, not the forward: in the suite, where the box
/// runs dozens of servers, a test read back another server's banner, and once a reset.
enum RemoteListenerCheck {
    /// Prints `A PID` for the script's shell and each of its ancestors (the session's sshd among
    /// them), then the listening ports (``ListeningPortScript/listing``).
    static let script = RemoteScript(
        step: "checking that the box's sshd holds the port it listens on",
        body: #"""
            p=$$
            while [ "${p:-0}" -gt 1 ]; do
              echo "A $p"
              p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
            done

            """#, ListeningPortScript.listing)

    /// Whether a server with this identification string needs the check (dropbear).
    static func applies(toServer identification: String) -> Bool {
        identification.lowercased().contains("dropbear")
    }

    /// Who holds a port, by ``script``'s output.
    enum Holder: Equatable {
        /// The session's sshd (an ancestor of the script's shell).
        case theSession
        /// Another program, or nobody.
        case another
        /// The box does not say (no `/proc`, or an owner this login may not read).
        case unknown
    }

    /// Who holds `address`:`port` (or the wildcard address on `port`) in `output`. The session's
    /// sshd is the nearest ancestor of the script that holds a socket on `port` (where the box is
    /// this machine, a further one may be the program that started the server).
    static func holder(in output: String, address: String, port: Int) -> Holder {
        let ancestors = output.split(separator: "\n").compactMap { line -> Int? in
            line.hasPrefix("A ") ? Int(line.dropFirst(2)) : nil
        }
        let ports = ListeningPortScript.parse(output)
        guard !ports.isEmpty else { return .unknown }
        let holders = Set(ports.filter { $0.port == port }.compactMap(\.process?.pid))
        let session = ancestors.first { holders.contains($0) }
        let wildcard = address.contains(":") ? "::" : "0.0.0.0"
        let matching = ports.filter { $0.port == port && ($0.address == address || $0.address == wildcard) }
        if let session, matching.contains(where: { $0.process?.pid == session }) { return .theSession }
        return matching.contains { $0.process == nil } ? .unknown : .another
    }
}
