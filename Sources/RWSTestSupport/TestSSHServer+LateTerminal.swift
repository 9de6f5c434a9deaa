import Foundation

extension TestSSHServer {
    /// A server of `kind` that reads a new terminal late, as a busy box can: a forced command
    /// stops the server process that reads the session's terminal for a second as a command
    /// with a terminal starts, and prints 9 KiB of banner lines, so whatever the command prints
    /// first waits in the kernel's buffer meanwhile (as it can when the kernel is too busy to move it).
    public static func readingTerminalsLate(_ kind: ServerKind) throws -> TestSSHServer {
        let script = """
            if [ -t 0 ]; then
                reader=$PPID
                while [ "$reader" -gt 1 ] && ! ps -o comm= -p "$reader" | grep -qxE 'sshd|sshd-session|dropbear'; do
                    reader=$(ps -o ppid= -p "$reader" | tr -d ' ')
                done
                kill -STOP "$reader"
                (sleep 1; kill -CONT "$reader") </dev/null >/dev/null 2>&1 &
                # More than the server's side of the terminal takes in unread (4 KiB): the rest, and
                # what the command prints next, waits in the kernel's buffer, which a flush discards.
                i=0
                while [ $i -lt 128 ]; do
                echo "a busy box's banner line, $i of 128, to fill the terminal's buffer ........"
                i=$((i + 1))
            done
            fi
            exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"
            """
        return try forcing(kind, script: script)
    }
}
