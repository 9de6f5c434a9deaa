import Testing

@testable import SSHConfig

@Suite("Token expansion")
struct TokenExpansionTests {
    // The same values ssh 9.2 used in a manual run, so %C can be checked
    // against the hash ssh printed (ssh -v: "identity file ...").
    let local = LocalContext(home: "/home/alice", userName: "alice", userID: 1000, hostName: "vm")

    func tokens() -> [Character: String] {
        TokenExpansion.pathTokens(
            local: local, hostName: "beta.example.com", originalHost: "Beta", port: 2022, remoteUser: "bob")
    }

    @Test("path tokens expand to home, local user, host name, remote user, port and original host")
    func pathTokens() throws {
        let expanded = try TokenExpansion.expandPath(
            "~/.ssh/%h_%r_%u_%d_%p_%n_%k_%i_%l_%L_%%", tokens: tokens(), home: local.home, keyword: "IdentityFile")
        #expect(expanded == "/home/alice/.ssh/beta.example.com_bob_alice_/home/alice_2022_Beta_Beta_1000_vm_vm_%")
    }

    @Test("%C is the SHA-1 of %l%h%p%r, as ssh computes it")
    func connectionHash() throws {
        #expect(
            try TokenExpansion.expand("%C", tokens: tokens(), keyword: "IdentityFile")
                == "063bd0e551fcb882f08491180e00141f48571357")
        #expect(SHA1.hexDigest("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hexDigest(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    @Test("%L is the local host name up to the first dot")
    func shortLocalHost() throws {
        var dotted = local
        dotted.hostName = "ws.corp.example"
        let tokens = TokenExpansion.pathTokens(
            local: dotted, hostName: "h", originalHost: "h", port: 22, remoteUser: "r")
        #expect(try TokenExpansion.expand("%L/%l", tokens: tokens, keyword: "IdentityFile") == "ws/ws.corp.example")
    }

    @Test("an unknown token or a trailing percent sign is an error that names the keyword")
    func unknownToken() {
        #expect(throws: SSHConfigError.unknownToken(token: "%z", keyword: "IdentityFile", value: "~/%z")) {
            try TokenExpansion.expand("~/%z", tokens: tokens(), keyword: "IdentityFile")
        }
        #expect(throws: SSHConfigError.unknownToken(token: "%", keyword: "HostName", value: "a%")) {
            try TokenExpansion.expand("a%", tokens: ["h": "x"], keyword: "HostName")
        }
    }

    @Test("only a leading ~ or ~/ is expanded; ~user is left alone")
    func tilde() {
        #expect(TokenExpansion.expandTilde("~", home: "/h") == "/h")
        #expect(TokenExpansion.expandTilde("~/k", home: "/h") == "/h/k")
        #expect(TokenExpansion.expandTilde("~bob/k", home: "/h") == "~bob/k")
        #expect(TokenExpansion.expandTilde("/a/~/k", home: "/h") == "/a/~/k")
    }
}
