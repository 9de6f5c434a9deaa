import Testing

@testable import SSHConfig

@Suite("Host argument [USER@]HOST[:PORT]")
struct HostArgumentTests {
    @Test(
        "user, host and port are split off",
        arguments: [
            ("user@host:2222", HostArgument(user: "user", host: "host", port: 2222)),
            ("host", HostArgument(host: "host")),
            ("me@host", HostArgument(user: "me", host: "host")),
            ("host:22", HostArgument(host: "host", port: 22)),
            ("[::1]:22", HostArgument(host: "::1", port: 22)),
            ("root@[fe80::1%eth0]:2222", HostArgument(user: "root", host: "fe80::1%eth0", port: 2222)),
            ("[::1]", HostArgument(host: "::1")),
            ("::1", HostArgument(host: "::1")),
            ("a@b@host", HostArgument(user: "a@b", host: "host")),
        ])
    func parses(text: String, expected: HostArgument) throws {
        #expect(try HostArgument(parsing: text) == expected)
    }

    @Test(
        "bad ports and empty parts are errors that say what is wrong",
        arguments: [
            ("host:0", "port '0' is not a decimal number from 1 to 65535"),
            ("host:65536", "port '65536' is not a decimal number from 1 to 65535"),
            ("host:ssh", "port 'ssh' is not a decimal number from 1 to 65535"),
            ("host:", "port '' is not a decimal number from 1 to 65535"),
            ("[::1]:x", "port 'x' is not a decimal number from 1 to 65535"),
            ("@host", "the user before '@' is empty"),
            ("user@", "the host is empty"),
            ("[::1", "'[' without a closing ']'"),
            ("[::1]2222", "unexpected text after ']'"),
        ])
    func rejects(text: String, reason: String) {
        #expect(throws: SSHConfigError.badHostArgument(argument: text, reason: reason)) {
            try HostArgument(parsing: text)
        }
    }

    @Test("the error message shows the accepted form")
    func message() {
        let error = SSHConfigError.badHostArgument(argument: "h:0", reason: "port '0' is not valid")
        #expect(
            error.description
                == "bad host 'h:0': port '0' is not valid. Use [USER@]HOST[:PORT], with an IPv6 address in brackets: [::1]:2222.")
    }

    @Test("description brackets IPv6 addresses that carry a port")
    func roundTrip() throws {
        for text in ["u@[::1]:2222", "host", "u@h:22", "::1"] {
            #expect(try HostArgument(parsing: text).description == text)
        }
    }
}
