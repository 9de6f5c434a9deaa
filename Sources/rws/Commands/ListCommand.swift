import ArgumentParser
import Foundation
import SSHClient
import SessionHistory

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List a directory on the box (every entry, hidden ones too, sorted by name).",
        discussion: """
            PATH is a remote path: absolute, or relative to the remote home (the default). Quote a
            leading ~ ('~/src') so that your local shell leaves it for the box. Symlinks are shown as
            links, never followed. A PATH that is not a directory is shown by itself.

            Uses SFTP when the server offers it, else exec and POSIX tools (find, stat).

            Output: one name per line; --long adds type and permissions, numeric owner and group,
            size, modification time (UTC) and link targets; --json prints an array of objects
            {name, path, kind, size, permissions (octal), userID, groupID, modified (ISO 8601),
            modificationTime (seconds since 1970), symlinkTarget}. Errors go to stderr (with --json:
            {"error", "exitCode"} on stdout), exit status 1 (255 when the connection failed).

            Examples:
              rws ls --host box
              rws ls --host box --long '~/.claude/projects'
              rws ls --host box /var/log --json
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Show type, permissions, owner ids, size, time and link targets.")
    var long = false

    @Flag(name: .long, help: "Print the entries as a JSON array.")
    var json = false

    // A path on the box: no local file completion, which would offer the wrong files.
    @Argument(help: "The remote directory (default: the remote home).", completion: .default)
    var path = "~"

    func run() async throws {
        try await runReportingErrors(json: json) {
            try requireRemotePath(path)
            let entries = try await connection.withConnection { ssh in
                try await Self.entries(at: path, on: ssh, targets: long || json)
            }
            if json {
                Terminal.out(EntryFormatting.json(entries))
            } else {
                Terminal.out(entries.map { (long ? EntryFormatting.longLine($0) : $0.name.safeLine) + "\n" }.joined())
            }
            return 0
        }
    }

    /// The directory's entries, or the path's own entry when it is not a directory.
    static func entries(at path: String, on ssh: SSHConnection, targets: Bool) async throws -> [RemoteFileEntry] {
        do {
            return try await ssh.listDirectory(path, includeSymlinkTargets: targets)
        } catch RemoteFileError.notADirectory {
            return [try await ssh.stat(path)]
        }
    }
}

/// How `rws ls` shows entries.
enum EntryFormatting {
    /// `-rw-r--r--  1000  1000      1234  2026-11-22 03:04  name -> target`
    static func longLine(_ entry: RemoteFileEntry) -> String {
        let attributes = entry.attributes
        let time = timestamp(attributes.modificationTime, format: "yyyy-MM-dd HH:mm")
        let ids = pad(String(attributes.userID), 6) + " " + pad(String(attributes.groupID), 6)
        let target = entry.symlinkTarget.map { " -> " + $0.safeLine } ?? ""
        return "\(modeString(attributes))  \(ids)  \(pad(String(attributes.size), 12))  \(time)  \(entry.name.safeLine)\(target)"
    }

    static func json(_ entries: [RemoteFileEntry]) -> String {
        let objects: [JSONValue] = entries.map { entry in
            let attributes = entry.attributes
            var members = [
                JSONMember("groupID", .number(Double(attributes.groupID))), JSONMember("kind", .string(entry.kind.rawValue)),
                JSONMember("modificationTime", .number(Double(Int64(attributes.modificationTime.timeIntervalSince1970)))),
                JSONMember("modified", .string(timestamp(attributes.modificationTime, format: "yyyy-MM-dd'T'HH:mm:ss'Z'"))),
                JSONMember("name", .string(entry.name)), JSONMember("path", .string(entry.path)),
                JSONMember("permissions", .string(String(format: "%04o", attributes.permissions))),
                JSONMember("size", .number(Double(entry.size))),
            ]
            if let target = entry.symlinkTarget { members.append(JSONMember("symlinkTarget", .string(target))) }
            members.append(JSONMember("userID", .number(Double(attributes.userID))))
            return .object(JSONObject(members))
        }
        return JSONWriter.string(from: .array(objects)) + "\n"
    }

    /// `drwxr-xr-x`, with setuid, setgid and sticky bits as `ls` shows them.
    static func modeString(_ attributes: RemoteFileAttributes) -> String {
        let type: Character =
            switch attributes.kind {
            case .directory: "d"
            case .symlink: "l"
            case .file: "-"
            case .other: "?"
            }
        let bits = attributes.permissions
        var characters: [Character] = [type]
        for (shift, special, specialCharacter) in [(6, UInt32(0o4000), "s"), (3, 0o2000, "s"), (0, 0o1000, "t")]
            as [(UInt32, UInt32, Character)]
        {
            let triple = (bits >> shift) & 7
            characters.append(triple & 4 != 0 ? "r" : "-")
            characters.append(triple & 2 != 0 ? "w" : "-")
            let executable = triple & 1 != 0
            if bits & special != 0 {
                characters.append(executable ? specialCharacter : Character(specialCharacter.uppercased()))
            } else {
                characters.append(executable ? "x" : "-")
            }
        }
        return String(characters)
    }

    private static func timestamp(_ date: Date, format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
