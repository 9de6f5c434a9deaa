import Foundation
import Testing

@testable import SSHConfig

@Suite("ProxyJump and -J")
struct ProxyJumpTests {
    let config = """
        Host target
          HostName 10.0.0.9
          ProxyJump me@bastion:2201,ssh://edge.example.com:22,inner
        Host direct
          ProxyJump none
        Host *
          ProxyJump fallback
        """

    @Test("ProxyJump lists the hops first hop first, with user and port, from the config file")
    func hopsFromTheFile() throws {
        try withFakeHome { home in
            let host = try resolve("target", in: config, home: home)
            #expect(
                host.proxyJump == [
                    HostArgument(user: "me", host: "bastion", port: 2201),
                    HostArgument(host: "edge.example.com", port: 22), HostArgument(host: "inner"),
                ])
            #expect(host.origins[.proxyjump] == .configFile)
            #expect(host.keyValueLines.last == "proxyjump me@bastion:2201,edge.example.com:22,inner")
        }
    }

    @Test("ProxyJump none wins over a later Host * block, and prints no proxyjump line, as ssh -G")
    func noneIsNoJump() throws {
        try withFakeHome { home in
            let host = try resolve("direct", in: config, home: home)
            #expect(host.proxyJump.isEmpty)
            #expect(!host.keyValueLines.contains { $0.hasPrefix("proxyjump") })
            #expect(try resolve("other", in: config, home: home).proxyJump == [HostArgument(host: "fallback")])
        }
    }

    @Test("-J beats RWS_PROXY_JUMP, which beats the file; -J none drops the file's hops")
    func precedence() throws {
        try withFakeHome { home in
            var flags = SettingOverrides()
            flags.proxyJump = try SettingOverrides.parseJumpHosts("a@j1:2,j2", flag: "-J")
            let environment = ["RWS_PROXY_JUMP": "envhop"]
            #expect(
                try resolve("target", in: config, home: home, flags: flags, environment: environment).proxyJump
                    == [HostArgument(user: "a", host: "j1", port: 2), HostArgument(host: "j2")])
            #expect(try resolve("target", in: config, home: home, environment: environment).proxyJump == [HostArgument(host: "envhop")])
            flags.proxyJump = try SettingOverrides.parseJumpHosts("none", flag: "-J")
            #expect(try resolve("target", in: config, home: home, flags: flags).proxyJump.isEmpty)
        }
    }

    @Test("an unreadable hop is an error naming the keyword, the line and what is accepted")
    func badValues() throws {
        try withFakeHome { home in
            #expect(throws: SSHConfigError.self) { try resolve("x", in: "ProxyJump a,,b\n", home: home) }
            #expect(throws: SSHConfigError.self) { try resolve("x", in: "ProxyJump me@:22\n", home: home) }
            #expect(throws: SSHConfigError.badFlagValue(flag: "-J", value: "h:99999", expected: JumpHosts.expectation)) {
                try SettingOverrides.parseJumpHosts("h:99999", flag: "-J")
            }
        }
    }

    @Test("the hops print as ssh -G prints them when written without ssh://")
    func sameAsSSH() throws {
        try withFakeHome { home in
            let file = try home.write(".ssh/jump_config", "Host t\n  ProxyJump me@j1:2201,j2,[::1]:22\n")
            let real = LocalContext.current()
            let ssh = try OpenSSH.config(for: "t", file: file, fakeHome: home.path, realHome: real.home)
            let ours = try Resolution.resolve(
                flags: {
                    var f = SettingOverrides()
                    f.host = HostArgument(host: "t")
                    return f
                }(),
                environment: [:], config: try SSHConfigFile.load(path: file, home: home.path),
                local: home.local)
            #expect(ssh.value("proxyjump") == JumpHosts.format(ours.proxyJump))
        }
    }
}
