import Foundation

extension TestSSHServer {
    /// A server of `kind` whose sessions all run the `/bin/sh` script `body` instead of the
    /// command asked for, which the script finds in `SSH_ORIGINAL_COMMAND` (sshd `ForceCommand`,
    /// dropbear `-c`); `options` as for any test server.
    public static func forcing(_ kind: ServerKind, script body: String, _ options: Options = Options()) throws -> TestSSHServer {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("rws-force-\(UUID().uuidString.prefix(8)).sh").path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try Shell.run("/bin/chmod", ["755", script])
        var options = options
        options.forceCommand = script
        return try TestSSHServer(kind, options)
    }
}
