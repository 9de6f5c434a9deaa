/// A POSIX sh script run on the box: a constant body plus positional arguments. Every script rws
/// sends goes this way, so no user value is ever part of a script's text.
///
/// The body is made of `StaticString`s, so it is fixed at compile time; values reach it as `$1`,
/// `$2`... The command line is `exec /bin/sh -c 'BODY' rws ARGS...`, every word through
/// ``ShellQuoting``: paths with ``ShellQuoting/quotePath(_:)`` so that `~/` means the remote
/// home, other words with ``ShellQuoting/quote(_:)``. `/bin/sh`, not the user's login shell
/// (which may not be POSIX) nor `sh` from a `PATH` that may lack it.
package struct RemoteScript: Sendable {
    /// A word passed to the script.
    package enum Argument: Sendable, Equatable {
        /// A plain word, passed byte for byte.
        case word(String)
        /// A remote path; a leading `~/` is the remote home.
        case path(String)
    }

    /// What the script does, for error messages ("listing sessions").
    package let step: String
    /// The script text.
    package let body: String
    /// The exit statuses the script declares, besides 0 (see ``RemoteScriptExit``).
    package let exitCodes: [Int32]
    /// Whether the command line first checks that the box's shell can open a file (see
    /// ``descriptorCheck``). Off only for scripts that must act even then: the stop, and the
    /// wrapper of the user's own command.
    package let checksDescriptors: Bool

    /// A script that gives its exit statuses no meaning beyond success and failure.
    package init(step: String, checksDescriptors: Bool = true, body parts: StaticString...) {
        self.step = step
        body = parts.map(\.description).joined()
        exitCodes = []
        self.checksDescriptors = checksDescriptors
    }

    /// A script whose non-zero exit statuses are the cases of `exits`.
    package init<Exit: RemoteScriptExit>(step: String, exits: Exit.Type, body parts: StaticString...) {
        self.step = step
        body = parts.map(\.description).joined()
        exitCodes = Exit.allCases.map(\.rawValue).sorted()
        checksDescriptors = true
    }

    /// The first line of every script that ``checksDescriptors``: on a box out of file
    /// descriptors every redirection fails, and a script whose `2>/dev/null` fails takes the
    /// branch meant for a missing file, so "no matches" or "not a directory" would be said of a
    /// box that could not look. It prints ``outOfDescriptorsMarker`` and the shell's `ulimit -n`,
    /// then exits ``outOfDescriptorsStatus``, which no script declares. `true`, not `:`: a redirection
    /// that fails on a special builtin ends a POSIX shell.
    static let descriptorCheck = "true 2>/dev/null || { echo \(outOfDescriptorsMarker); ulimit -n; exit \(outOfDescriptorsStatus); }\n"
    /// The first line a script prints when its shell could not open a file.
    static let outOfDescriptorsMarker = "rws-no-descriptors"
    /// The exit status of a script whose shell could not open a file (EX_OSERR).
    package static let outOfDescriptorsStatus: Int32 = 71

    /// The command line: `exec /bin/sh -c 'BODY' rws ARGS...`; `shell` replaces `/bin/sh` in tests.
    package func commandLine(_ arguments: [Argument], shell: String = "/bin/sh") throws(ShellQuotingError) -> String {
        let text = checksDescriptors ? Self.descriptorCheck + body : body
        var words = ["exec", try ShellQuoting.quote(shell), "-c", try ShellQuoting.quote(text), "rws"]
        for argument in arguments { words.append(try Self.quoted(argument)) }
        return words.joined(separator: " ")
    }

    /// Arguments for a script that starts with ``argumentsFromInput``, as its standard input:
    /// the same quoted words as on a command line. For lists longer than a command line may be:
    /// sshd hands the whole command line to the login shell as one argument, and Linux takes at
    /// most 128 KiB per argument.
    package static func input(_ arguments: [Argument]) throws(ShellQuotingError) -> [UInt8] {
        var words: [String] = []
        for argument in arguments { words.append(try quoted(argument)) }
        return Array(words.joined(separator: " ").utf8)
    }

    /// The first line of a script that takes its arguments from its standard input (``input(_:)``):
    /// the words were quoted by ``ShellQuoting``, so `eval` only splits them back.
    package static let argumentsFromInput: StaticString = #"""
        eval "set -- $(cat)"

        """#

    private static func quoted(_ argument: Argument) throws(ShellQuotingError) -> String {
        switch argument {
        case .word(let word): try ShellQuoting.quote(word)
        case .path(let path): try ShellQuoting.quotePath(path)
        }
    }

    /// The command line for plain words.
    package func commandLine(_ words: String...) throws(ShellQuotingError) -> String {
        try commandLine(words.map(Argument.word))
    }
}

extension RemoteScript {
    /// Every script SSHClient runs on the box, for tests.
    static let sshClientScripts: [RemoteScript] =
        PersistentShellScripts.all + [ProcessKill.script, StoppableCommand.script, ListeningPortScript.script] + ShellFileScripts.all
}

/// The exit statuses a script uses to say why it stopped, shared by the script and its caller:
/// the script's body writes `exit N` for a case's raw value, the caller reads the status back
/// with ``ExitStatus/scriptExit(_:)``. A test checks that every `exit N` in a body is declared.
package protocol RemoteScriptExit: RawRepresentable, CaseIterable, Sendable where RawValue == Int32 {}

extension ExitStatus {
    /// The script's declared reason for this status; nil for success, another code or a signal.
    package func scriptExit<Exit: RemoteScriptExit>(_ type: Exit.Type) -> Exit? {
        guard case .exited(let code) = self else { return nil }
        return Exit(rawValue: code)
    }

    /// Whether the script ended with `exit`.
    package static func == <Exit: RemoteScriptExit>(status: ExitStatus, exit: Exit) -> Bool {
        status == .exited(exit.rawValue)
    }
}
