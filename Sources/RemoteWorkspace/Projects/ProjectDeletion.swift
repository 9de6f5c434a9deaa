import SSHClient

/// What ``ProjectManager/deleteProject(name:includingHistory:dryRun:)`` removed (or, in a dry
/// run, would remove).
public struct ProjectDeletion: Sendable, Equatable, Codable {
    /// One removed thing.
    public struct Item: Sendable, Equatable, Codable {
        /// What it was.
        public var kind: Kind
        /// Its absolute path on the box.
        public var path: String

        /// Creates an item.
        public init(kind: Kind, path: String) {
            self.kind = kind
            self.path = path
        }
    }

    /// Kinds of removed things.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The project directory, with everything in it.
        case directory
        /// A symbolic link (the project entry, or a history folder link); only the link.
        case symbolicLink
        /// A Claude Code project folder with the project's sessions.
        case historyFolder
    }

    /// The project's name.
    public var name: String
    /// Whether nothing was removed because this was a dry run.
    public var dryRun: Bool
    /// What was removed, in order.
    public var items: [Item]

    /// Creates a report.
    public init(name: String, dryRun: Bool, items: [Item]) {
        self.name = name
        self.dryRun = dryRun
        self.items = items
    }
}

/// The script that removes a project entry and history folders, checking every real path on the box.
enum ProjectDeletionScript {
    /// The command line removing entry `name` (nil: none) and `historyFolders`.
    static func arguments(
        locations: WorkspaceLocations, name: String?, historyFolders: [String],
        dryRun: Bool
    ) -> [RemoteScript.Argument] {
        let parents = locations.claudeProjectFolders
        let arguments: [RemoteScript.Argument] = [
            .word(dryRun ? "1" : "0"), .path(locations.workspaceRoot), .word(name ?? ""),
            .word(String(parents.count)),
        ]
        return arguments + parents.map(RemoteScript.Argument.path) + historyFolders.map(RemoteScript.Argument.path)
    }

    /// `$1` 1 for a dry run, `$2` the workspace root, `$3` the entry's name (empty: none), `$4` the
    /// number N of Claude project folders, then those N folders, then the history folders to remove.
    /// Prints `D path`, `L path` or `H path` (NUL-terminated fields) for each removal, `X path` before refusing.
    static let script = RemoteScript(
        step: "deleting the project", exits: ProjectScriptExit.self,
        body: #"""
            # shellcheck disable=SC2115 # $b is checked not to be empty
            f() { printf '%s\000' "$@"; }
            dry=$1 root=$2 name=$3 n=$4
            shift 4
            parents() { j=0; for p; do [ "$j" -lt "$n" ] || break; (cd -P "$p" 2>/dev/null && pwd -P); j=$((j + 1)); done; }
            if [ -n "$name" ]; then
            [ -d "$root" ] || exit 210
            rootreal=$(cd -P "$root" && pwd -P) || exit 210
            [ "$rootreal" = / ] && { f X /; exit 212; }
            entry=$rootreal/$name
            if [ -L "$entry" ]; then
              f L "$entry"; [ "$dry" = 1 ] || rm -f -- "$entry" || exit 213
            elif [ -d "$entry" ]; then
              real=$(cd -P "$entry" && pwd -P) || exit 210
              [ "$real" = "$entry" ] || { f X "$real"; exit 215; }
              f D "$entry"; [ "$dry" = 1 ] || rm -rf -- "$entry" || exit 213
            else
              exit 210
            fi
            fi
            i=0
            for h; do
              i=$((i + 1)); [ "$i" -gt "$n" ] || continue
              [ -e "$h" ] || [ -L "$h" ] || continue
              b=${h##*/}
              hp=$(cd -P "${h%/*}" 2>/dev/null && pwd -P) || { f X "$h"; exit 215; }
              case "$b" in ''|.|..) f X "$h"; exit 215 ;; esac
              parents "$@" | grep -Fqx -- "$hp" || { f X "$h"; exit 215; }
              if [ -L "$hp/$b" ]; then f L "$hp/$b"; else f H "$hp/$b"; fi
              [ "$dry" = 1 ] || rm -rf -- "$hp/$b" || exit 213
            done
            """#)

    /// Reads the script's records.
    static func items(from output: [UInt8]) -> (removed: [ProjectDeletion.Item], refused: String?) {
        let fields = output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        var items: [ProjectDeletion.Item] = []
        var refused: String?
        var index = 0
        while index + 1 < fields.count {
            let path = fields[index + 1]
            switch fields[index] {
            case "D": items.append(.init(kind: .directory, path: path))
            case "L": items.append(.init(kind: .symbolicLink, path: path))
            case "H": items.append(.init(kind: .historyFolder, path: path))
            default: refused = path
            }
            index += 2
        }
        return (items, refused)
    }
}
