import Foundation
import Platform

extension SSHConfigFile {
    /// How deeply `Include` may nest, as OpenSSH's `READCONF_MAX_DEPTH`.
    public static let maximumIncludeDepth = 16

    /// Reads the configuration file at `path` and every file it includes.
    ///
    /// - Parameters:
    ///   - path: The file to read, e.g. `~/.ssh/config` already expanded, or a `-F` file.
    ///   - home: The local home directory: `~` and relative `Include` paths
    ///     (which live in `home/.ssh`) are resolved against it. Injected so that
    ///     tests never touch the real `~/.ssh`.
    ///   - required: When `false`, a missing file yields an empty configuration,
    ///     as `ssh` treats a missing `~/.ssh/config`; when `true` it is an error,
    ///     as `ssh -F` treats a missing file.
    public static func load(path: String, home: String, required: Bool = true) throws -> SSHConfigFile {
        if !required, !FileManager.default.fileExists(atPath: path) {
            return .empty(path: path)
        }
        return try ConfigParser(home: home).load(path: path, includedFrom: nil, chain: [])
    }

    /// Parses configuration text that did not come from a file (`path` is only
    /// used in messages). `Include` lines are still read from disk.
    public static func parse(_ text: String, path: String, home: String) throws -> SSHConfigFile {
        try ConfigParser(home: home).parse(text, path: path, chain: [canonical(path)])
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Reads configuration files and follows their `Include` lines.
struct ConfigParser {
    let home: String

    func load(path: String, includedFrom: SourceLocation?, chain: [String]) throws -> SSHConfigFile {
        let text = try read(path, includedFrom: includedFrom)
        return try parse(text, path: path, chain: chain + [SSHConfigFile.canonical(path)])
    }

    func parse(_ text: String, path: String, chain: [String]) throws -> SSHConfigFile {
        var lines: [ConfigLine] = []
        var warnings: [SSHConfigWarning] = []
        let rawLines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (offset, raw) in rawLines.enumerated() {
            let location = SourceLocation(file: path, line: offset + 1)
            guard let tokens = try LineTokenizer.tokenize(String(raw), at: location) else { continue }
            guard let kind = try kind(of: tokens, at: location, chain: chain) else { continue }
            switch kind {
            case let .match(condition):
                if let warning = condition.warning(at: location) { warnings.append(warning) }
            case let .include(files):
                warnings += files.flatMap(\.warnings)
            case .host, .setting:
                break
            }
            lines.append(ConfigLine(kind: kind, location: location))
        }
        return SSHConfigFile(path: path, lines: lines, warnings: warnings)
    }

    private func kind(of line: TokenizedLine, at location: SourceLocation, chain: [String]) throws -> ConfigLine.Kind? {
        switch line.keyword {
        case "host":
            guard !line.arguments.isEmpty else {
                throw SSHConfigError.missingArgument(keyword: line.spelling, location: location)
            }
            return .host(line.arguments.map(HostPattern.init))
        case "match":
            return .match(try MatchCondition.parse(line.arguments, at: location))
        case "include":
            guard !line.arguments.isEmpty else {
                throw SSHConfigError.missingArgument(keyword: line.spelling, location: location)
            }
            return .include(try include(line.arguments, at: location, chain: chain))
        default:
            return try ConfigSetting.parse(line, at: location).map { .setting($0) }
        }
    }

    /// Reads the files an `Include` line names. Patterns that match nothing are
    /// skipped (as OpenSSH does); a matched file that cannot be read is an error.
    private func include(_ patterns: [String], at location: SourceLocation, chain: [String]) throws -> [SSHConfigFile] {
        var files: [SSHConfigFile] = []
        for pattern in patterns {
            for path in try expand(anchored(pattern), at: location) {
                guard chain.count <= SSHConfigFile.maximumIncludeDepth else {
                    throw SSHConfigError.includeDepthExceeded(
                        limit: SSHConfigFile.maximumIncludeDepth, location: location)
                }
                let canonicalPath = SSHConfigFile.canonical(path)
                if chain.contains(canonicalPath) {
                    throw SSHConfigError.includeLoop(chain: chain + [canonicalPath], location: location)
                }
                files.append(try load(path: path, includedFrom: location, chain: chain))
            }
        }
        return files
    }

    /// `~` paths are expanded and relative paths live in `~/.ssh`, as for
    /// OpenSSH user configuration files (including `-F` files).
    private func anchored(_ pattern: String) -> String {
        if pattern.hasPrefix("/") || pattern.hasPrefix("~") {
            return TokenExpansion.expandTilde(pattern, home: home)
        }
        return home + "/.ssh/" + pattern
    }

    private func expand(_ pattern: String, at location: SourceLocation) throws -> [String] {
        do {
            return try SystemCall.glob(pattern)
        } catch {
            throw SSHConfigError.unreadableFile(
                path: pattern, reason: "the pattern could not be expanded (\(error.reason))", includedFrom: location)
        }
    }

    private func read(_ path: String, includedFrom: SourceLocation?) throws -> String {
        var isDirectory: ObjCBool = false
        let reason: String
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            reason = "no such file"
        } else if isDirectory.boolValue {
            reason = "it is a directory"
        } else {
            // Read to its end whatever its kind: character devices such as `-F /dev/null` too.
            do {
                return String(decoding: try SystemCall.readFile(path), as: UTF8.self)
            } catch {
                reason = error.reason(advising: nil)
            }
        }
        throw SSHConfigError.unreadableFile(path: path, reason: reason, includedFrom: includedFrom)
    }
}
