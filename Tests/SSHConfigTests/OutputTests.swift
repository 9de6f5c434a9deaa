import Foundation
import Testing

@testable import SSHConfig

@Suite("Printing resolved settings")
struct OutputTests {
    @Test("key-value lines use ssh -G's lower-case keys, one identityfile line per file")
    func keyValueLines() throws {
        try withFakeHome { home in
            let config = "Host box\n  HostName 10.0.0.5\n  IdentityFile /k/a\n  IdentityFile /k/b\n  ConnectTimeout 5\n"
            let host = try resolve("bob@box", in: config, home: home, environment: ["SSH_AUTH_SOCK": "/run/agent"])
            #expect(
                host.keyValueLines == [
                    "host box", "hostname 10.0.0.5", "user bob", "port 22",
                    "identityfile /k/a", "identityfile /k/b",
                    "identitiesonly no", "userknownhostsfile \(home.path)/.ssh/known_hosts",
                    "stricthostkeychecking ask", "connecttimeout 5", "serveraliveinterval 0", "serveralivecountmax 3",
                    "identityagent /run/agent",
                ])
        }
    }

    @Test("the JSON form decodes back to the same settings, with origins keyed by setting name")
    func json() throws {
        try withFakeHome { home in
            let host = try resolve("box", in: "Host box\n  Port 2\n", home: home)
            let text = try host.jsonString()
            #expect(text.contains(#""port" : "config-file""#))
            #expect(text.contains(#""strictHostKeyChecking" : "ask""#))
            #expect(try JSONDecoder().decode(ResolvedHost.self, from: Data(text.utf8)) == host)
        }
    }
}
