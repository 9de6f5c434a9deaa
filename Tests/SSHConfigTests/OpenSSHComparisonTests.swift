import Foundation
import Testing

@testable import SSHConfig

/// Resolves a fixture configuration with rws and with `ssh -G -F FIXTURE HOST`
/// (OpenSSH's own resolution) and compares the results host by host.
///
/// How the two outputs are made comparable, and why:
/// - `ssh` expands `~` and `%d` with the home directory from the password
///   database and ignores `$HOME`, so its paths start with the real home; rws
///   runs with the fake home. The real home prefix in ssh's output is replaced
///   by the fake one. (`Include` lines use absolute paths for the same reason:
///   ssh would look for relative ones in the real `~/.ssh`.)
/// - `ssh -G` prints `identityfile` values unexpanded, so they are compared
///   with rws's unexpanded config values; the expanded files are compared with
///   the "identity file" lines of `ssh -v` run against a ProxyCommand that
///   closes at once (ssh loads identities before the key exchange).
/// - Where the config is silent, ssh prints its own defaults: seven identity
///   files, two known-hosts files, `stricthostkeychecking ask`. rws's defaults
///   are deliberately fewer (see docs/ssh-config.md); the test checks that they
///   are a subset.
@Suite("Same results as ssh -G")
struct OpenSSHComparisonTests {
    static let hosts = [
        "web1", "web2", "web3", "webx", "WEB1", "db.corp", "bastion.corp", "Mixed", "mixed",
        "inc", "other", "plain", "::1",
    ]

    @Test("every keyword resolves as ssh resolves it", arguments: hosts)
    func sameAsSSH(host: String) throws {
        try withFakeHome { home in
            let real = LocalContext.current()
            let local = LocalContext(home: home.path, userName: real.userName, userID: real.userID, hostName: real.hostName)
            let fixture = try Fixture.write(in: home, localUser: real.userName)
            let config = try SSHConfigFile.load(path: fixture, home: home.path)
            var flags = SettingOverrides()
            flags.host = HostArgument(host: host)
            let ours = try Resolution.resolve(flags: flags, environment: [:], config: config, local: local)
            let rawIdentities = config.settings(for: host, localUser: real.userName).identityFiles

            let ssh = try OpenSSH.config(for: host, file: fixture, fakeHome: home.path, realHome: real.home)
            #expect(ours.hostName == ssh.value("hostname"))
            #expect(ours.user == ssh.value("user"))
            #expect(String(ours.port) == ssh.value("port"))
            #expect((ours.identitiesOnly ? "yes" : "no") == ssh.value("identitiesonly"))
            #expect(ours.connectTimeout.map(String.init) ?? "none" == ssh.value("connecttimeout"))
            #expect(String(ours.serverAliveInterval) == ssh.value("serveraliveinterval"))
            #expect(String(ours.serverAliveCountMax) == ssh.value("serveralivecountmax"))
            #expect(ours.strictHostKeyChecking == StrictHostKeyChecking(configValue: ssh.value("stricthostkeychecking") ?? ""))
            try compareLists(ours: ours, rawIdentities: rawIdentities, ssh: ssh, home: home.path)
            if ours.origins[.identityfile] == .configFile {
                let loaded = try OpenSSH.loadedIdentities(for: host, file: fixture, fakeHome: home.path, realHome: real.home)
                #expect(ours.identityFiles == loaded)
            }
        }
    }

    private func compareLists(ours: ResolvedHost, rawIdentities: [String], ssh: OpenSSH.Output, home: String) throws {
        let sshIdentities = ssh.values("identityfile")
        if rawIdentities.isEmpty {
            #expect(sshIdentities == OpenSSH.defaultIdentityFiles)
            #expect(Set(Resolution.defaultIdentityFiles).isSubset(of: sshIdentities))
        } else {
            #expect(rawIdentities == sshIdentities)
        }
        let knownHosts = ssh.value("userknownhostsfile")
        if ours.origins[.userknownhostsfile] == .default {
            #expect(knownHosts == "\(home)/.ssh/known_hosts \(home)/.ssh/known_hosts2")
            #expect(ours.userKnownHostsFiles == ["\(home)/.ssh/known_hosts"])
        } else {
            // ssh prints the list space-separated, so compare it in that form.
            #expect(ours.userKnownHostsFiles.joined(separator: " ") == knownHosts)
        }
    }

    @Test("the fixture exercises every keyword rws reads")
    func fixtureCoversEveryKeyword() throws {
        let keywords = Set(
            Fixture.main.split(whereSeparator: \.isNewline).compactMap {
                $0.split(whereSeparator: { $0 == " " || $0 == "=" }).first.map { $0.lowercased() }
            })
        #expect(
            keywords.isSuperset(of: [
                "host", "match", "include", "hostname", "user", "port", "identityfile", "identitiesonly",
                "userknownhostsfile", "stricthostkeychecking", "connecttimeout", "serveraliveinterval",
                "serveralivecountmax",
            ]))
    }
}

/// The fixture configuration. `FIXTURE_DIR` and `LOCAL_USER` are filled in when written.
enum Fixture {
    static let main = """
        # rws SSHConfig fixture, compared with ssh -G.
        IgnoreUnknown FrobnicateLevel
        FrobnicateLevel 11

        Host web1 web2 !web3 web?
          HostName %h.example.com
          User deploy
          Port 2201
          IdentityFile ~/.ssh/web_%h_%r
          IdentityFile "%d/keys/with space/%u-%p"  # a quoted path

        Host *.corp !bastion.corp
          User=corpuser
          IdentitiesOnly yes
          UserKnownHostsFile ~/.ssh/known_corp "%d/kh dir/%h_%r"
          StrictHostKeyChecking accept-new

        Host bastion.corp
          Port 2222
          StrictHostKeyChecking off
          UserKnownHostsFile /dev/null

        Host Mixed
          HostName UPPER.Example.COM

        Host inc other
          Include FIXTURE_DIR/included.conf
          Port 4444

        Match host *.example.com
          ServerAliveInterval 1m
          IdentityFile ~/.ssh/example_%n_%L_%C

        Match originalhost web2 user deploy
          ConnectTimeout 15

        Match exec "false"
          User never

        Match localuser LOCAL_USER !host *.corp
          ServerAliveCountMax 7

        Host * !plain !::1
          IdentityFile ~/.ssh/common_%k_%i_%l

        Host *
          ConnectTimeout 30
          ServerAliveInterval 5
          StrictHostKeyChecking ask
          IdentitiesOnly no
          # Named again: ssh keeps one of each (not for plain and ::1, which the first one skips).
          IdentityFile ~/.ssh/common_%k_%i_%l
        """

    static let included = """
        User incuser
        Host other
          Port 1111
          ServerAliveCountMax 9
        Host *
          ConnectTimeout 2m
        """

    /// Writes the fixture and its include into `home/fixture` and returns the main file's path.
    static func write(in home: FakeHome, localUser: String) throws -> String {
        let dir = home.path + "/fixture"
        try home.write("fixture/included.conf", included)
        return try home.write(
            "fixture/config",
            main
                .replacingOccurrences(of: "FIXTURE_DIR", with: dir)
                .replacingOccurrences(of: "LOCAL_USER", with: localUser))
    }
}
