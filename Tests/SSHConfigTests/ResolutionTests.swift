import Testing

@testable import SSHConfig

@Suite("Resolution: flags > RWS_* environment > config file > defaults")
struct ResolutionTests {
    let config = """
        Host box
          HostName box.example.com
          User fileuser
          Port 2200
          IdentityFile ~/.ssh/box_%r
          UserKnownHostsFile ~/.ssh/box_known
          StrictHostKeyChecking accept-new
          ConnectTimeout 7
          ServerAliveInterval 30
          ServerAliveCountMax 5
          IdentitiesOnly yes
        """

    @Test("with no flags and no environment the config file's values are used, paths expanded")
    func fileOnly() throws {
        try withFakeHome { home in
            let host = try resolve("box", in: config, home: home)
            #expect(host.hostName == "box.example.com")
            #expect(host.user == "fileuser")
            #expect(host.port == 2200)
            #expect(host.identityFiles == [home.path + "/.ssh/box_fileuser"])
            #expect(host.userKnownHostsFiles == [home.path + "/.ssh/box_known"])
            #expect(host.strictHostKeyChecking == .acceptNew)
            #expect(host.connectTimeout == 7)
            #expect(host.serverAliveInterval == 30)
            #expect(host.serverAliveCountMax == 5)
            #expect(host.identitiesOnly)
            #expect(
                Set(host.origins.filter { $0.value == .configFile }.keys) == [
                    .hostname, .user, .port, .identityfile, .userknownhostsfile, .stricthostkeychecking,
                    .connecttimeout, .serveraliveinterval, .serveralivecountmax, .identitiesonly,
                ])
        }
    }

    @Test("RWS_* variables win over the config file")
    func environmentOverFile() throws {
        try withFakeHome { home in
            let environment = [
                "RWS_USER": "envuser", "RWS_PORT": "2300", "RWS_IDENTITY": "~/.ssh/e1:/keys/e2",
                "RWS_KNOWN_HOSTS": "/kh/a:/kh/b", "RWS_STRICT_HOST_KEY_CHECKING": "no",
                "RWS_CONNECT_TIMEOUT": "1m", "RWS_SERVER_ALIVE_INTERVAL": "10", "RWS_SERVER_ALIVE_COUNT_MAX": "2",
                "RWS_IDENTITIES_ONLY": "no",
            ]
            let host = try resolve("box", in: config, home: home, environment: environment)
            #expect(host.user == "envuser")
            #expect(host.port == 2300)
            #expect(host.identityFiles == [home.path + "/.ssh/e1", "/keys/e2"])
            #expect(host.userKnownHostsFiles == ["/kh/a", "/kh/b"])
            #expect(host.strictHostKeyChecking == .no)
            #expect(host.connectTimeout == 60)
            #expect(host.serverAliveInterval == 10)
            #expect(host.serverAliveCountMax == 2)
            #expect(!host.identitiesOnly)
            #expect(host.origins[.user] == .environment)
            #expect(host.origins[.hostname] == .configFile)
        }
    }

    @Test("flags win over RWS_* variables; an explicit --user/--port wins over user@host:port")
    func flagsOverEnvironment() throws {
        try withFakeHome { home in
            var flags = SettingOverrides()
            flags.identityFiles = ["/flag/key"]
            flags.strictHostKeyChecking = .yes
            let environment = ["RWS_USER": "envuser", "RWS_PORT": "2300", "RWS_IDENTITY": "/env/key"]
            let embedded = try resolve("hostuser@box:2400", in: config, home: home, flags: flags, environment: environment)
            #expect(embedded.user == "hostuser")
            #expect(embedded.port == 2400)
            #expect(embedded.identityFiles == ["/flag/key"])
            #expect(embedded.strictHostKeyChecking == .yes)
            #expect(embedded.origins[.port] == .flag)
            flags.user = "flaguser"
            flags.port = 2500
            let explicit = try resolve("hostuser@box:2400", in: config, home: home, flags: flags, environment: environment)
            #expect(explicit.user == "flaguser")
            #expect(explicit.port == 2500)
        }
    }

    @Test("the remote user chosen by flag or environment is what %r expands to and what Match user sees")
    func userFeedsTokensAndMatch() throws {
        try withFakeHome { home in
            let text = "Match user admin\n  IdentityFile ~/.ssh/admin_%r\n"
            let host = try resolve("admin@box", in: text, home: home)
            #expect(host.identityFiles == [home.path + "/.ssh/admin_admin"])
        }
    }

    @Test("defaults: port 22, local user, ed25519 and ecdsa keys, ~/.ssh/known_hosts, strict checking")
    func defaults() throws {
        try withFakeHome { home in
            let host = try resolve("Plain.Example", in: "", home: home)
            #expect(host.host == "Plain.Example")
            #expect(host.hostName == "plain.example")
            #expect(host.user == "alice")
            #expect(host.port == 22)
            #expect(host.identityFiles == [home.path + "/.ssh/id_ed25519", home.path + "/.ssh/id_ecdsa"])
            #expect(host.userKnownHostsFiles == [home.path + "/.ssh/known_hosts"])
            #expect(host.strictHostKeyChecking == .ask, "OpenSSH's default")
            #expect(host.connectTimeout == nil)
            #expect(host.serverAliveInterval == 0)
            #expect(host.serverAliveCountMax == 3)
            #expect(!host.identitiesOnly)
            #expect(host.origins.values.allSatisfy { $0 == .default || $0 == .flag })
        }
    }

    @Test("identity candidates stay visible; only existing files are used for connecting")
    func existingIdentities() throws {
        try withFakeHome { home in
            try home.write(".ssh/id_ecdsa", "key")
            let host = try resolve("box", in: "", home: home)
            #expect(host.identityFiles.count == 2)
            #expect(host.existingIdentityFiles() == [home.path + "/.ssh/id_ecdsa"])
        }
    }

    @Test("the agent is used when SSH_AUTH_SOCK is set; IdentitiesOnly limits it to listed keys")
    func agent() throws {
        try withFakeHome { home in
            #expect(try resolve("box", in: "", home: home).agentPolicy == .unavailable)
            #expect(try resolve("box", in: "", home: home, environment: ["SSH_AUTH_SOCK": ""]).agentPolicy == .unavailable)
            let agent = try resolve("box", in: "", home: home, environment: ["SSH_AUTH_SOCK": "/tmp/agent.sock"])
            #expect(agent.agentPolicy == .allKeys)
            #expect(agent.agentSocket == "/tmp/agent.sock")
            let only = try resolve("box", in: config, home: home, environment: ["SSH_AUTH_SOCK": "/tmp/agent.sock"])
            #expect(only.agentPolicy == .listedIdentitiesOnly)
        }
    }

    @Test("RWS_HOST names the host when no flag does; with neither there is a clear error")
    func hostFromEnvironment() throws {
        try withFakeHome { home in
            let config = try home.config(config)
            let host = try Resolution.resolve(
                flags: SettingOverrides(), environment: ["RWS_HOST": "envuser@box:2600"], config: config, local: home.local)
            #expect(host.hostName == "box.example.com")
            #expect(host.user == "envuser")
            #expect(host.port == 2600)
            #expect(host.origins[.host] == .environment)
            #expect(throws: SSHConfigError.missingHost) {
                try Resolution.resolve(flags: SettingOverrides(), environment: [:], config: config, local: home.local)
            }
        }
    }

    @Test("bad RWS_* values are errors naming the variable and the accepted form")
    func badEnvironment() throws {
        try withFakeHome { home in
            #expect(
                throws: SSHConfigError.badEnvironmentValue(
                    variable: "RWS_PORT", value: "http", expected: "a decimal number from 1 to 65535")
            ) {
                try resolve("box", in: "", home: home, environment: ["RWS_PORT": "http"])
            }
            #expect(
                throws: SSHConfigError.badEnvironmentValue(
                    variable: "RWS_HOST", value: "box:0",
                    expected: "[USER@]HOST[:PORT] (port '0' is not a decimal number from 1 to 65535)")
            ) {
                try SettingOverrides(environment: ["RWS_HOST": "box:0"])
            }
            #expect(
                throws: SSHConfigError.badEnvironmentValue(
                    variable: "RWS_STRICT_HOST_KEY_CHECKING", value: "maybe", expected: "yes, ask, accept-new, no or off")
            ) {
                try SettingOverrides(environment: ["RWS_STRICT_HOST_KEY_CHECKING": "maybe"])
            }
        }
    }

    @Test("flag value parsers reject bad text with the flag's name")
    func flagParsers() throws {
        #expect(try SettingOverrides.parsePort("2222", flag: "--port") == 2222)
        #expect(try SettingOverrides.parseSeconds("1h2m3s", flag: "--connect-timeout") == 3723)
        #expect(try SettingOverrides.parseYesNo("YES", flag: "--identities-only"))
        #expect(try SettingOverrides.parseStrictHostKeyChecking("ask", flag: "--strict") == .ask)
        #expect(throws: SSHConfigError.badFlagValue(flag: "--port", value: "70000", expected: "a decimal number from 1 to 65535")) {
            try SettingOverrides.parsePort("70000", flag: "--port")
        }
        #expect(throws: SSHConfigError.self) { try SettingOverrides.parseSeconds("5x", flag: "--connect-timeout") }
        #expect(throws: SSHConfigError.self) { try SettingOverrides.parseCount("-1", flag: "--server-alive-count-max") }
    }

    @Test("the config file comes from the flag, else RWS_SSH_CONFIG, else ~/.ssh/config (which may be missing)")
    func configFileChoice() throws {
        let local = LocalContext(home: "/h", userName: "u", userID: 1, hostName: "l")
        var flags = SettingOverrides()
        #expect(Resolution.configFilePath(flags: flags, environment: [:], local: local) == ("/h/.ssh/config", false))
        #expect(
            Resolution.configFilePath(flags: flags, environment: ["RWS_SSH_CONFIG": "~/alt"], local: local)
                == ("/h/alt", true))
        flags.configFile = "/etc/rws/ssh_config"
        #expect(
            Resolution.configFilePath(flags: flags, environment: ["RWS_SSH_CONFIG": "~/alt"], local: local)
                == ("/etc/rws/ssh_config", true))
    }

    @Test("a HostName with a token other than %h is an error when resolving")
    func badHostNameToken() throws {
        try withFakeHome { home in
            #expect(throws: SSHConfigError.unknownToken(token: "%p", keyword: "HostName", value: "%h-%p")) {
                try resolve("box", in: "HostName %h-%p\n", home: home)
            }
        }
    }
}
