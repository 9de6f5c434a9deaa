import Testing

@testable import SSHConfig

@Suite("Error messages say where, what and what to do")
struct ErrorMessageTests {
    let here = SourceLocation(file: "/home/a/.ssh/config", line: 12)

    @Test("a bad value names file:line, the keyword, the value and the accepted form")
    func badValue() {
        let error = SSHConfigError.badValue(keyword: "Port", value: "0x10", expected: "a decimal number from 1 to 65535", location: here)
        #expect(
            error.description == "/home/a/.ssh/config:12: bad Port value '0x10'; expected a decimal number from 1 to 65535. "
                + "Fix the value in that line.")
    }

    @Test("an Include loop lists the chain of files")
    func includeLoop() {
        let error = SSHConfigError.includeLoop(chain: ["/c", "/a", "/c"], location: here)
        #expect(error.description == "/home/a/.ssh/config:12: Include loop: /c -> /a -> /c. Remove one of these Include lines.")
    }

    @Test("an unreadable include names the Include line it came from")
    func unreadable() {
        let error = SSHConfigError.unreadableFile(path: "/x", reason: "permission denied", includedFrom: here)
        #expect(
            error.description == "cannot read configuration file /x (included from /home/a/.ssh/config:12): permission "
                + "denied. Check that it exists and that you may read it.")
    }

    @Test("a bad environment value names the variable")
    func environment() {
        let error = SSHConfigError.badEnvironmentValue(variable: "RWS_PORT", value: "x", expected: "a port")
        #expect(error.description == "environment variable RWS_PORT='x': expected a port. Fix or unset it.")
    }

    @Test("an unsupported Match criterion produces a warning with its location")
    func matchWarning() throws {
        let condition = try MatchCondition.parse(["exec", "test -f /x"], at: here)
        #expect(
            condition.warning(at: here)?.description
                == "/home/a/.ssh/config:12: Match criteria not supported by rws (exec test -f /x); this block is never applied")
    }
}
