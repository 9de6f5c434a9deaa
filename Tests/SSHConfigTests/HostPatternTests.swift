import Testing

@testable import SSHConfig

@Suite("Host patterns")
struct HostPatternTests {
    @Test("star matches any run of characters, question mark exactly one")
    func wildcards() {
        #expect(HostPattern("*.example.com").wildcardMatches("db.example.com"))
        #expect(!HostPattern("*.example.com").wildcardMatches("example.com"))
        #expect(HostPattern("web?").wildcardMatches("web1"))
        #expect(!HostPattern("web?").wildcardMatches("web"))
        #expect(!HostPattern("web?").wildcardMatches("web12"))
        #expect(HostPattern("a*b*c").wildcardMatches("aXXbYYbc"))
        #expect(HostPattern("*").wildcardMatches(""))
    }

    @Test("Host line patterns are case-sensitive, as in OpenSSH")
    func caseSensitive() {
        #expect(!HostPattern("Beta").wildcardMatches("beta"))
    }

    @Test("a Host line matches when a positive pattern matches and no negated one does")
    func hostLine() {
        let patterns = ["*.example.com", "!bastion.example.com"].map(HostPattern.init)
        #expect(HostPattern.hostLineMatches(patterns, name: "db.example.com"))
        #expect(!HostPattern.hostLineMatches(patterns, name: "bastion.example.com"))
        #expect(!HostPattern.hostLineMatches([HostPattern("!foo")], name: "bar"))
    }

    @Test("a Match pattern list is comma-separated and lower-cases the name, not the patterns")
    func patternList() {
        #expect(HostPattern.listMatches("a*,!ab", name: "AC", lowercasingName: true))
        #expect(!HostPattern.listMatches("a*,!ab", name: "AB", lowercasingName: true))
        #expect(!HostPattern.listMatches("A*", name: "AC", lowercasingName: true))
        #expect(!HostPattern.listMatches("a*", name: "AC", lowercasingName: false))
    }
}
