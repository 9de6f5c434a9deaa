import Testing

@testable import SSHConfig

@Suite("Reading a configuration file for a host")
struct ConfigFileTests {
    @Test("the first obtained value wins for single-valued keywords; IdentityFile accumulates")
    func firstValueWins() throws {
        try withFakeHome { home in
            let config = try home.config(
                """
                Host web
                  User deploy
                  IdentityFile ~/.ssh/web
                Host *
                  User nobody
                  Port 2200
                  IdentityFile ~/.ssh/all
                """)
            let settings = config.settings(for: "web", localUser: "alice")
            #expect(settings.user == "deploy")
            #expect(settings.port == 2200)
            #expect(settings.identityFiles == ["~/.ssh/web", "~/.ssh/all"])
        }
    }

    @Test("only the first applicable UserKnownHostsFile line counts, with all its files")
    func knownHostsFirstLine() throws {
        try withFakeHome { home in
            let config = try home.config("UserKnownHostsFile ~/a ~/b\nUserKnownHostsFile ~/c\n")
            #expect(config.settings(for: "x", localUser: "alice").userKnownHostsFiles == ["~/a", "~/b"])
        }
    }

    @Test("unknown and unused keywords are ignored")
    func unknownKeywords() throws {
        try withFakeHome { home in
            let config = try home.config("FrobnicateLevel 11\nForwardAgent yes\nUser bob\n")
            #expect(config.settings(for: "x", localUser: "alice").user == "bob")
        }
    }

    @Test("a bad Port is an error naming file, line and the accepted form, even in a block for another host")
    func badPort() throws {
        try withFakeHome { home in
            let path = home.path + "/.ssh/config"
            #expect(
                throws: SSHConfigError.badValue(
                    keyword: "Port", value: "0x10", expected: "a decimal number from 1 to 65535",
                    location: SourceLocation(file: path, line: 2))
            ) {
                try home.config("Host elsewhere\n  Port 0x10\n")
            }
        }
    }

    @Test("single-valued keywords reject a second value and a missing value")
    func argumentCounts() throws {
        try withFakeHome { home in
            let path = home.path + "/.ssh/config"
            #expect(
                throws: SSHConfigError.extraArguments(
                    keyword: "User", extra: "smith", location: SourceLocation(file: path, line: 1))
            ) {
                try home.config("User john smith\n")
            }
            #expect(
                throws: SSHConfigError.missingArgument(
                    keyword: "HostName", location: SourceLocation(file: path, line: 1))
            ) {
                try home.config("HostName\n")
            }
        }
    }

    @Test("Match all applies; Match host sees HostName with %h expanded, lower-cased")
    func matchHost() throws {
        try withFakeHome { home in
            let config = try home.config(
                """
                Host db
                  HostName %h.Internal.example
                Match host *.internal.example
                  User dba
                Match !host *.internal.example
                  User other
                Match all
                  Port 2022
                """)
            #expect(config.settings(for: "db", localUser: "alice").user == "dba")
            #expect(config.settings(for: "web", localUser: "alice").user == "other")
            #expect(config.settings(for: "web", localUser: "alice").port == 2022)
        }
    }

    @Test("Match originalhost, user and localuser are evaluated; user sees the command-line user")
    func matchUsers() throws {
        try withFakeHome { home in
            let config = try home.config(
                """
                Match originalhost db user root
                  Port 1
                Match localuser alice
                  IdentityFile ~/.ssh/alice
                """)
            #expect(config.settings(for: "db", commandLineUser: "root", localUser: "alice").port == 1)
            #expect(config.settings(for: "db", localUser: "root").port == 1)
            #expect(config.settings(for: "db", localUser: "alice").port == nil)
            #expect(config.settings(for: "db", localUser: "alice").identityFiles == ["~/.ssh/alice"])
        }
    }

    @Test("a Match block with a criterion rws cannot evaluate never applies, and a warning says so")
    func unsupportedMatch() throws {
        try withFakeHome { home in
            let config = try home.config(
                """
                Match exec "true" host *
                  User fromexec
                Match canonical
                  Port 3
                Match tagged x
                  Port 4
                Match somethingnew a b c
                  Port 5
                """)
            let settings = config.settings(for: "db", localUser: "alice")
            #expect(settings.user == nil)
            #expect(settings.port == nil)
            #expect(config.warnings.map(\.location.line) == [1, 3, 5, 7])
            #expect(config.warnings[0].description.contains("exec true"))
            #expect(config.warnings[0].description.contains("never applied"))
        }
    }

    @Test("malformed Match lines are errors")
    func badMatch() throws {
        try withFakeHome { home in
            #expect(throws: SSHConfigError.self) { try home.config("Match\n") }
            #expect(throws: SSHConfigError.self) { try home.config("Match host\n") }
            #expect(throws: SSHConfigError.self) { try home.config("Match all host x\n") }
        }
    }
}
