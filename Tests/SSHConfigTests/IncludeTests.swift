import Testing

@testable import SSHConfig

@Suite("Include")
struct IncludeTests {
    @Test("relative Include paths live in ~/.ssh, globs are read in sorted order")
    func relativeGlob() throws {
        try withFakeHome { home in
            try home.write(".ssh/conf.d/20-b", "IdentityFile ~/.ssh/b\nUser second\n")
            try home.write(".ssh/conf.d/10-a", "IdentityFile ~/.ssh/a\nUser first\n")
            let config = try home.config("Include conf.d/*\n")
            let settings = config.settings(for: "x", localUser: "alice")
            #expect(settings.identityFiles == ["~/.ssh/a", "~/.ssh/b"])
            #expect(settings.user == "first")
            #expect(config.filesRead.count == 3)
        }
    }

    @Test("~ in Include expands to the injected home; a pattern matching nothing is skipped")
    func tildeAndNoMatch() throws {
        try withFakeHome { home in
            try home.write("extra.conf", "Port 2022\n")
            let config = try home.config("Include ~/extra.conf ~/missing/*.conf\n")
            #expect(config.settings(for: "x", localUser: "alice").port == 2022)
        }
    }

    @Test("an Include inside a Host block applies only under that block's condition")
    func includeUnderHost() throws {
        try withFakeHome { home in
            try home.write(
                ".ssh/inner",
                """
                User inner
                Host other
                  Port 1111
                Host *
                  ConnectTimeout 90
                """)
            let config = try home.config(
                """
                Host one
                  Include inner
                  Port 4444
                Host *
                  User outer
                """)
            let one = config.settings(for: "one", localUser: "alice")
            #expect(one.user == "inner")
            #expect(one.connectTimeout == 90)
            #expect(one.port == 4444)  // the Host lines inside the include do not leak out
            let other = config.settings(for: "other", localUser: "alice")
            #expect(other.user == "outer")
            #expect(other.port == nil)  // nothing in a file included from an inactive block applies
            #expect(other.connectTimeout == nil)
        }
    }

    @Test("an Include loop is an error naming the chain of files")
    func loop() throws {
        try withFakeHome { home in
            try home.write(".ssh/a", "Include b\n")
            try home.write(".ssh/b", "Include a\n")
            do {
                _ = try home.config("Include a\n")
                Issue.record("expected an Include loop error")
            } catch let SSHConfigError.includeLoop(chain, location) {
                #expect(chain.map { $0.split(separator: "/").last.map(String.init) } == ["config", "a", "b", "a"])
                #expect(location.file.hasSuffix("/.ssh/b"))
                #expect(location.line == 1)
            }
        }
    }

    @Test("includes nested deeper than 16 files are an error")
    func depth() throws {
        try withFakeHome { home in
            for level in 0..<20 { try home.write(".ssh/level\(level)", "Include level\(level + 1)\n") }
            try home.write(".ssh/level20", "Port 1\n")
            #expect(
                throws: SSHConfigError.includeDepthExceeded(
                    limit: 16, location: SourceLocation(file: home.path + "/.ssh/level15", line: 1))
            ) {
                try home.config("Include level0\n")
            }
        }
    }

    @Test("an included file that exists but cannot be read is an error naming the Include line")
    func unreadable() throws {
        try withFakeHome { home in
            // A directory matched by the pattern cannot be read as a file (and,
            // unlike a chmod 000 file, also fails when the tests run as root).
            try home.write(".ssh/conf.d/sub/file", "Port 1\n")
            let path = home.path + "/.ssh/config"
            #expect(
                throws: SSHConfigError.unreadableFile(
                    path: home.path + "/.ssh/conf.d/sub", reason: "it is a directory",
                    includedFrom: SourceLocation(file: path, line: 2))
            ) {
                try home.config("# includes\nInclude conf.d/*\n")
            }
        }
    }

    @Test("a missing -F file is an error; a missing ~/.ssh/config is an empty configuration")
    func missingTopLevel() throws {
        try withFakeHome { home in
            let path = home.path + "/.ssh/config"
            #expect(throws: SSHConfigError.unreadableFile(path: path, reason: "no such file", includedFrom: nil)) {
                try SSHConfigFile.load(path: path, home: home.path)
            }
            let empty = try SSHConfigFile.load(path: path, home: home.path, required: false)
            #expect(empty.settings(for: "x", localUser: "alice") == HostSettings())
        }
    }
}
