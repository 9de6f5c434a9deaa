import Foundation
import RWSTestSupport
import SSHClient

@testable import RemoteWorkspace

extension WorkspaceScriptTests {
    /// The folder of detached conversations in a case's sandbox, named with the hostile word.
    private static func conversations(_ sandbox: String) -> String { sandbox + "/c/" + ScriptCase.hostile }

    /// A conversation folder `abc` as the start script makes it.
    private static let conversation = #"mkdir -p "c/$2/abc" && mkfifo "c/$2/abc/in" && : > "c/$2/abc/out" && : > "c/$2/abc/err""#

    /// The scripts of detached conversations (`rws ask --persist`), each run once under every shell.
    static let detachedCases: [ScriptCase] = [
        ScriptCase(
            "starting a detached conversation in a missing directory", DetachedClaudeScripts.start,
            arguments: {
                [
                    .path(conversations($0)), .word("abc"), .word("1"), .word(DetachedClaudeScripts.keeper.body), .word("1"),
                    .path($0 + "/" + ScriptCase.hostile), .path("/bin/sh"), .word("m1"), .word("m2"), .path("/bin/sh"),
                ]
            }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == DetachedClaudeScripts.StartExit.missingDirectory.rawValue && run.stderr == "m1\n"
                    && !FileManager.default.fileExists(atPath: conversations(sandbox) + "/abc"), "\(run)")
        },
        ScriptCase(
            "keeping a detached conversation to its end", DetachedClaudeScripts.keeper, setup: conversation,
            arguments: {
                [
                    .path(conversations($0) + "/abc"), .word("1"), .path("/bin/sh"), .word("-c"), .word("echo \"$0\""),
                    .word(ScriptCase.hostile),
                ]
            }
        ) { run, sandbox in
            // Claude Code ended, no client came for the idle second: nothing is left.
            try ScriptCase.require(run.status == 0 && !FileManager.default.fileExists(atPath: conversations(sandbox) + "/abc"), "\(run)")
        },
        ScriptCase(
            "attaching to a detached conversation", DetachedClaudeScripts.attach,
            setup: conversation + #" && printf 'l1\nl2\n' > "c/$2/abc/out" && printf 'r1\n' > "c/$2/abc/answered""#,
            input: Array("#rws-answered r2\n{\"type\":\"user\"}\n".utf8), normalize: { $0 },
            arguments: { [.path(conversations($0)), .word("abc"), .word("6")] }
        ) { run, sandbox in
            let answered = try String(contentsOfFile: conversations(sandbox) + "/abc/answered", encoding: .utf8)
            try ScriptCase.require(
                run.status == 0 && run.stdoutText == "rws-answered r1\nrws-attached 6\n" && answered == "r1\nr2\n", "\(run)")
        },
        ScriptCase(
            "attaching to a conversation that has ended", DetachedClaudeScripts.attach,
            setup: conversation + #" && printf 'l1\n' > "c/$2/abc/out" && : > "c/$2/abc/ended""#,
            // From the end of `out`: a replay would race the kill its input's end brings.
            arguments: { [.path(conversations($0)), .word("abc"), .word("3")] }
        ) { run, sandbox in
            // Its followers killed, the folder removed; bash would name each killed follower on stderr.
            try ScriptCase.require(
                run.status == 0 && run.stderr.isEmpty && !FileManager.default.fileExists(atPath: conversations(sandbox) + "/abc"),
                "\(run)")
        },
        ScriptCase(
            "attaching to a conversation that is gone", DetachedClaudeScripts.attach,
            arguments: { [.path(conversations($0)), .word("abc"), .word("0")] }
        ) { run, _ in
            try ScriptCase.require(run.status == DetachedClaudeScripts.AttachExit.notFound.rawValue && run.stdout.isEmpty, "\(run)")
        },
        ScriptCase(
            "stopping a detached conversation", DetachedClaudeScripts.stop, setup: conversation + #" && echo 4242 > "c/$2/abc/group""#,
            arguments: { [.path(conversations($0)), .word("abc")] }
        ) { run, sandbox in
            try ScriptCase.require(
                run.status == 0 && run.stdoutText == "group 4242\nkeeper none\n"
                    && FileManager.default.fileExists(atPath: conversations(sandbox) + "/abc/stop"), "\(run)")
        },
        ScriptCase(
            "removing an ended conversation's files", DetachedClaudeScripts.forget, setup: conversation + #" && : > "c/$2/abc/ended""#,
            arguments: { [.path(conversations($0)), .word("abc"), .word("")] }
        ) { run, sandbox in
            try ScriptCase.require(run.status == 0 && !FileManager.default.fileExists(atPath: conversations(sandbox) + "/abc"), "\(run)")
        },
        ScriptCase(
            "listing detached conversations", DetachedClaudeScripts.list,
            setup: conversation + #" && : > "c/$2/abc/ended" && mkdir "c/$2/def" && echo 999999 > "c/$2/def/client""#
                + #" && printf '{"type":"system","session_id":"s-1"}\n{"session_id":"s-2"}\n' > "c/$2/abc/out""#,
            arguments: { [.path(conversations($0))] }
        ) { run, _ in
            try ScriptCase.require(run.status == 0 && run.stdoutText == "abc\tended\ts-1\t\ndef\tdetached\t\t\n", "\(run)")
        },
    ]
}
