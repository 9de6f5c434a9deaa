import Foundation
import RWSTestSupport
import SSHClient
import SessionHistory

@testable import RemoteWorkspace

extension WorkspaceScriptTests {
    /// The scripts of `rws hooks` and `rws watch`, each run once under every shell with the hostile word in its paths.
    static let hookCases: [ScriptCase] = [
        ScriptCase(
            "recording a hook event", ClaudeHookScript.script, setup: #"mkdir -p "h/$2""#,
            input: Array(#"{"session_id":"s","hook_event_name":"Stop","last_assistant_message":"one\ntwo ✓"}"#.utf8),
            arguments: { [.path($0 + "/h/" + ScriptCase.hostile)] }
        ) { run, sandbox in
            let spool = try String(contentsOfFile: sandbox + "/h/" + ScriptCase.hostile + "/events.jsonl", encoding: .utf8)
            let event = try JSONValue(parsing: spool.trimmingCharacters(in: .newlines))
            try ScriptCase.require(
                run.status == 0 && run.stdout.isEmpty && event["event"]?["last_assistant_message"]?.stringValue == "one\ntwo ✓"
                    && (event["at"]?.numberValue ?? 0) > 1_700_000_000, "\(run) \(spool)")
        },
        ScriptCase(
            "reading Claude Code's settings", ClaudeHookScripts.inspect,
            setup: #"mkdir -p "c/$2/rws" && printf '{}' > "c/$2/settings.json" && printf 'x' > "c/$2/rws/hook.sh""#,
            arguments: { [.word("rws-test-b"), .word(""), .path($0 + "/none"), .path($0 + "/c/" + ScriptCase.hostile)] }
        ) { run, sandbox in
            var reader = SectionReader(boundary: "rws-test-b")
            let sections = reader.feed(run.stdout) + reader.finish()
            let headers = sections.map { $0.fields(1)[0] }
            try ScriptCase.require(
                run.status == 0 && headers == ["dir", "settings", "content", "hook", "spool", "current", "end"]
                    && sections[1].content == Array((sandbox + "/c/" + ScriptCase.hostile + "/settings.json").utf8)
                    && sections[2].content == Array("{}".utf8), "\(run)")
        },
        ScriptCase(
            "writing Claude Code's settings", ClaudeHookScripts.write, setup: #"mkdir -p "c/$2""#,
            input: Array("{\"hooks\":{}}\n".utf8),
            arguments: {
                let folder = $0 + "/c/" + ScriptCase.hostile
                return [
                    .path(folder), .path(folder + "/settings.json"), .word("absent"), .word("install"), .word("# hook\n"), .word("user"),
                ]
            }
        ) { run, sandbox in
            let folder = sandbox + "/c/" + ScriptCase.hostile
            let settings = try String(contentsOfFile: folder + "/settings.json", encoding: .utf8)
            let hook = try String(contentsOfFile: folder + "/rws/hook.sh", encoding: .utf8)
            try ScriptCase.require(run.status == 0 && settings == "{\"hooks\":{}}\n" && hook == "# hook\n", "\(run)")
        },
        ScriptCase(
            "answering a permission request", ClaudeHookScripts.answer,
            setup: #"mkdir -p "h/$2/requests" "h/$2/answers" && : > "h/$2/requests/1-2.json""#,
            arguments: { [.path($0 + "/h/" + ScriptCase.hostile), .word("1-2"), .word(#"{"ok":1}"#)] }
        ) { run, sandbox in
            let answer = try String(contentsOfFile: sandbox + "/h/" + ScriptCase.hostile + "/answers/1-2", encoding: .utf8)
            try ScriptCase.require(run.status == 0 && answer == "{\"ok\":1}\n", "\(run) \(answer)")
        },
        ScriptCase(
            "noting a standing permission", ClaudeStandingGrants.append,
            setup: #"mkdir -p home/.cache/rws && echo '{"n":1}' > home/.cache/rws/grants.jsonl"#,
            input: Array(#"{"n":2}"#.utf8 + [10]), arguments: { _ in [] }
        ) { run, sandbox in
            let notes = try String(contentsOfFile: sandbox + "/home/.cache/rws/grants.jsonl", encoding: .utf8)
            try ScriptCase.require(run.status == 0 && notes == "{\"n\":1}\n{\"n\":2}\n", "\(run) \(notes)")
        },
        ScriptCase(
            "reading the standing permissions", ClaudeStandingGrants.read, setup: #"mkdir -p "c/$2" && printf '{}' > "c/$2/s.json""#,
            arguments: { [.word("rws-test-b"), .path($0 + "/none.json"), .path($0 + "/c/" + ScriptCase.hostile + "/s.json")] }
        ) { run, _ in
            var reader = SectionReader(boundary: "rws-test-b")
            let sections = reader.feed(run.stdout) + reader.finish()
            try ScriptCase.require(
                run.status == 0 && sections.map(\.header) == ["file 1", "end"] && sections[0].content == Array("{}".utf8), "\(run)")
        },
    ]
}
