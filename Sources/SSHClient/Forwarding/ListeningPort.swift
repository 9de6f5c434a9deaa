import Foundation
import Platform

/// A TCP port listening on the box, from its `/proc/net/tcp` and `tcp6`.
public struct ListeningPort: Sendable, Equatable, Hashable {
    /// The port number.
    public var port: Int
    /// The address it listens on: `0.0.0.0` or `::` (every address), `127.0.0.1` or `::1` (the
    /// box itself), or one of its addresses.
    public var address: String
    /// The process that owns the socket, when the box lets this login read it (its own processes).
    public var process: Process?

    /// A process on the box.
    public struct Process: Sendable, Equatable, Hashable {
        /// Its PID.
        public var pid: Int
        /// Its command name (`/proc/PID/comm`: at most 15 characters).
        public var command: String

        /// A process description.
        public init(pid: Int, command: String) {
            self.pid = pid
            self.command = command
        }
    }

    /// A port description.
    public init(port: Int, address: String, process: Process? = nil) {
        self.port = port
        self.address = address
        self.process = process
    }

    /// The host the box connects to for a forward: its IPv6 loopback for a socket bound to `::1`
    /// alone (a dev server on "localhost" that chose IPv6), else its IPv4 loopback.
    public var forwardingHost: String { address == "::1" ? "::1" : "127.0.0.1" }

    /// Whether the box reaches it on a loopback address (every listener but one bound to another
    /// address of the box).
    public var isReachableFromTheBox: Bool { ["0.0.0.0", "::", "127.0.0.1", "::1"].contains(address) }
}

/// The script behind ``SSHConnection/listeningPorts(timeout:)``.
enum ListeningPortScript {
    /// The listing, run alone.
    static let script = RemoteScript(step: "listing the ports listening on the box", body: listing)

    /// Prints `E 1` on a little-endian box (`E 256` on a big-endian one: the order /proc writes
    /// addresses in), `L FILE ADDRESS:PORT INODE` for each listening socket (state 0A) of
    /// /proc/net/tcp and tcp6, and `P PID INODE PPID COMMAND` for each process owning one of them
    /// (`ls -l` of every readable /proc/PID/fd: one process for all, any POSIX userland). Other
    /// scripts print lines of their own beside it; ``parse(_:)`` skips them.
    static let listing: StaticString = #"""
        printf 'E %s\n' "$(printf '\001\000' | od -An -tu2 | tr -d ' ')"
        {
          for f in /proc/net/tcp /proc/net/tcp6; do
            [ -r "$f" ] && awk -v f="${f##*/}" 'NR > 1 && $4 == "0A" { print "L", f, $2, $10 }' "$f"
          done
          echo --
          # shellcheck disable=SC2012
          ls -l /proc/[0-9]*/fd 2>/dev/null
        } | awk '
          !fds && $0 == "--" { fds = 1; next }
          !fds { print; inode[$4] = 1; next }
          /^\/proc\/[0-9]+\/fd:$/ { split($0, p, "/"); pid = p[3]; next }
          $NF ~ /^socket:\[[0-9]+\]$/ { i = $NF; gsub(/[^0-9]/, "", i); if (i in inode) print "S", pid, i }
        ' | while read -r kind a b c; do
          if [ "$kind" = S ]; then
            pp=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$a/status" 2>/dev/null)
            printf 'P %s %s %s %s\n' "$a" "$b" "${pp:-0}" "$(cat "/proc/$a/comm" 2>/dev/null)"
          else
            printf '%s %s %s %s\n' "$kind" "$a" "$b" "$c"
          fi
        done
        """#

    /// The ports in `output`, sorted by port then address, one row per address and port.
    static func parse(_ output: String) -> [ListeningPort] {
        var holders: [String: [(process: ListeningPort.Process, parent: Int)]] = [:]
        var sockets: [(field: String, inode: String)] = []
        var bigEndian = false
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true).map(String.init)
            if words.count >= 4, words[0] == "P", let pid = Int(words[1]), let parent = Int(words[3]) {
                holders[words[2], default: []].append((ListeningPort.Process(pid: pid, command: words.count == 5 ? words[4] : ""), parent))
            } else if words.count == 4, words[0] == "L" {
                sockets.append((words[2], words[3]))
            } else if words == ["E", "256"] {
                bigEndian = true
            }
        }
        let owners = holders.mapValues(owner)
        var seen = Set<ListeningPort>()
        return sockets.compactMap { socket -> ListeningPort? in
            guard let (address, number) = decode(socket.field, bigEndian: bigEndian) else { return nil }
            let port = ListeningPort(port: number, address: address, process: owners[socket.inode])
            return seen.insert(port).inserted ? port : nil
        }.sorted { ($0.port, $0.address) < ($1.port, $1.address) }
    }

    /// The owner of a socket several processes hold: the one whose parent holds none of it (a
    /// pre-forking server's master, not its workers; not a child between its fork and its exec),
    /// the lowest PID among several.
    private static func owner(_ holders: [(process: ListeningPort.Process, parent: Int)]) -> ListeningPort.Process {
        let pids = Set(holders.map(\.process.pid))
        let roots = holders.filter { !pids.contains($0.parent) }
        return (roots.isEmpty ? holders : roots).min { $0.process.pid < $1.process.pid }!.process
    }

    /// `0100007F:0BB8` → (127.0.0.1, 3000) on a little-endian box: the kernel prints each 32-bit
    /// word of the address in the box's byte order (`7F000001` on a big-endian one), the port as a number.
    static func decode(_ field: String, bigEndian: Bool = false) -> (String, Int)? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1], radix: 16), [8, 32].contains(parts[0].count) else { return nil }
        var bytes: [UInt8] = []
        let hex = Array(parts[0].utf8)
        for word in stride(from: 0, to: hex.count, by: 8) {
            guard let value = UInt32(String(decoding: hex[word..<word + 8], as: UTF8.self), radix: 16) else { return nil }
            let word = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
            bytes += bigEndian ? word.reversed() : word
        }
        guard let text = SystemCall.addressText(bytes) else { return nil }
        return (text, port)
    }
}

extension SSHConnection {
    /// The TCP ports listening on the box (IPv4 and IPv6), with the owning process where this
    /// login may read it; what `rws ports` shows and `rws forward --auto` follows.
    ///
    /// Reads `/proc`: on a box without it (not Linux) the list is empty.
    ///
    /// - Parameter timeout: How long the listing may take (a box with thousands of processes
    ///   takes longer); past it the listing stops on the box and ``SSHError/timedOut(command:after:)`` is thrown.
    public func listeningPorts(timeout: Duration = .seconds(60)) async throws -> [ListeningPort] {
        let script = ListeningPortScript.script
        let result = try await script.run(on: self, timeout: timeout, idempotent: true) {
            SSHError.channelFailed(operation: script.step, reason: $0.stderrText)
        }
        return ListeningPortScript.parse(result.stdoutText)
    }
}
