import Foundation
import RWSTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct FileCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    /// A fresh directory inside the server's sandbox home, with a file, a subdirectory and a link.
    private func makeTree(_ server: TestSSHServer) throws -> String {
        let name = "ls-\(UUID().uuidString.prefix(8))"
        let path = server.remoteHome + "/" + name
        try FileManager.default.createDirectory(atPath: path + "/sub dir", withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640, .modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
            ofItemAtPath: path + "/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: path + "/link", withDestinationPath: "notes.txt")
        return name
    }

    @Test(arguments: ServerKind.allCases)
    func getCopiesAFileIntoAFolderSilentlyOnAPipeAndSaysWhatIsMissing(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-get-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let copied = await InProcessRWS.run(["get"] + server.rwsFlags + ["~/" + name + "/notes.txt", folder], home: home)
        #expect(copied.status == 0 && copied.stderr.isEmpty && copied.stdout.isEmpty, "\(copied.stderr)")
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "hello\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/notes.txt")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)

        let missing = await InProcessRWS.run(["get"] + server.rwsFlags + ["~/" + name + "/none.txt", folder], home: home)
        #expect(missing.status == 1 && missing.stderr.contains("none.txt"), "\(missing.stderr)")
        let folderThere = await InProcessRWS.run(["get"] + server.rwsFlags + ["~/" + name + "/sub dir", folder], home: home)
        #expect(folderThere.status == 1 && folderThere.stderr.contains("is a directory: add -r"), "\(folderThere.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    }

    @Test(arguments: ServerKind.allCases)
    func getDashRCopiesATreeWithItsLinkAndRefusesToOverwriteIt(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-get-r-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let copied = await InProcessRWS.run(["get", "-r"] + server.rwsFlags + ["~/" + name + "/", folder], home: home)
        #expect(copied.status == 0 && copied.stderr.isEmpty && copied.stdout.isEmpty, "\(copied.stderr)")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder + "/" + name)) == ["notes.txt", "sub dir", "link"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name + "/link") == "notes.txt")
        #expect(try String(contentsOfFile: folder + "/" + name + "/notes.txt", encoding: .utf8) == "hello\n")

        // Into the same folder again: the tree's own name is taken there now.
        let again = await InProcessRWS.run(["get", "-r"] + server.rwsFlags + ["~/" + name, folder], home: home)
        #expect(again.status == 1 && again.stderr.contains("exists already"), "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
    }

    @Test(arguments: ServerKind.allCases)
    func putCopiesAFileIntoAFolderOnTheBoxAndGetBringsItBackTheSame(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("rws-put-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: here + "/back", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: here) }
        let contents = Data(TestBytes.make(5_000_000, seed: 5))
        try contents.write(to: URL(fileURLWithPath: here + "/it's a file.bin"))

        let put = await InProcessRWS.run(["put"] + server.rwsFlags + [here + "/it's a file.bin", "~/" + name + "/sub dir"], home: home)
        #expect(put.status == 0 && put.stderr.isEmpty && put.stdout.isEmpty, "\(put.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: server.remoteHome + "/" + name + "/sub dir/it's a file.bin")) == contents)
        let back = await InProcessRWS.run(
            ["get"] + server.rwsFlags + ["~/" + name + "/sub dir/it's a file.bin", here + "/back/"], home: home)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: here + "/back/it's a file.bin")) == contents)

        let missing = await InProcessRWS.run(["put"] + server.rwsFlags + [here + "/none.bin"], home: home)
        #expect(missing.status == 66 && missing.stderr.contains("no such file: " + here + "/none.bin"), "\(missing.stderr)")
        let noFolder = await InProcessRWS.run(["put"] + server.rwsFlags + [here + "/it's a file.bin", "~/" + name + "/nope/x"], home: home)
        #expect(noFolder.status == 1 && noFolder.stderr.contains("nope"), "\(noFolder.stderr)")
    }

    /// Names that a shell would run, split or read as options go through `get` and `put` as
    /// plain names, both ways, and nothing they spell runs here or on the box.
    @Test(arguments: ServerKind.allCases)
    func hostileNamesAreCopiedAsNamesBothWays(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let folder = try makeTree(server)
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("rws-hostile-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: here + "/back", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: here) }
        // A name cannot hold a slash: the canary lands in the working directory of whatever ran it.
        let canary = "rws-hostile-canary"
        let names = [
            "-n x.txt", "$(touch \(canary))", "`touch \(canary)`", "it's \"q\".txt", "a;touch \(canary)", "line\nbreak", "é ü.txt",
        ]
        for (index, name) in names.enumerated() {
            let contents = Data("file \(index)\n".utf8)
            try contents.write(to: URL(fileURLWithPath: here + "/" + name))
            let remote = "~/" + folder + "/" + name
            let put = await InProcessRWS.run(["put"] + server.rwsFlags + ["--", here + "/" + name, remote], home: home)
            #expect(put.status == 0, "\(name.debugDescription): \(put.stderr)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: server.remoteHome + "/" + folder + "/" + name)) == contents,
                "\(name.debugDescription)")
            let get = await InProcessRWS.run(["get"] + server.rwsFlags + ["--", remote, here + "/back/" + name], home: home)
            #expect(get.status == 0, "\(name.debugDescription): \(get.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: here + "/back/" + name)) == contents, "\(name.debugDescription)")
        }
        for place in [server.remoteHome, server.remoteHome + "/" + folder, FileManager.default.currentDirectoryPath, here] {
            #expect(!FileManager.default.fileExists(atPath: place + "/" + canary), "\(place)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func putDashRSendsATreeIntoAFolderOnTheBoxAndRefusesToOverwriteIt(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("rws-put-r-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: here + "/site/css", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: here) }
        try Data("body {}\n".utf8).write(to: URL(fileURLWithPath: here + "/site/css/main.css"))
        try FileManager.default.createSymbolicLink(atPath: here + "/site/style.css", withDestinationPath: "css/main.css")

        let plain = await InProcessRWS.run(["put"] + server.rwsFlags + [here + "/site", "~/" + name + "/"], home: home)
        #expect(plain.status == 1 && plain.stderr.contains("is a directory: add -r"), "\(plain.stderr)")
        let sent = await InProcessRWS.run(["put", "-r"] + server.rwsFlags + [here + "/site", "~/" + name + "/"], home: home)
        #expect(sent.status == 0 && sent.stderr.isEmpty, "\(sent.stderr)")
        let there = server.remoteHome + "/" + name + "/site"
        #expect(try String(contentsOfFile: there + "/css/main.css", encoding: .utf8) == "body {}\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: there + "/style.css") == "css/main.css")
        let again = await InProcessRWS.run(["put", "-r"] + server.rwsFlags + [here + "/site", "~/" + name + "/"], home: home)
        #expect(again.status == 1 && again.stderr.contains("exists already"), "\(again.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func lsPrintsOneNamePerLineForAPathRelativeToTheRemoteHome(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let outcome = await InProcessRWS.run(["ls"] + server.rwsFlags + [name], home: home)
        #expect(outcome.stdout == "link\nnotes.txt\nsub dir\n")
        #expect(outcome.status == 0)
    }

    @Test(arguments: ServerKind.allCases)
    func lsLongShowsModeOwnerSizeTimeAndLinkTargets(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let outcome = await InProcessRWS.run(["ls", "--long"] + server.rwsFlags + ["~/" + name], home: home)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("lrwxrwxrwx") && lines[0].hasSuffix("link -> notes.txt"))
        #expect(lines[1].hasPrefix("-rw-r-----") && lines[1].contains(" 6  2023-11-14 22:13  notes.txt"))
        #expect(lines[2].hasPrefix("drwxr-xr-x") && lines[2].hasSuffix("sub dir"))
    }

    @Test(arguments: ServerKind.allCases)
    func lsJSONGivesTypedEntries(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let name = try makeTree(server)
        let outcome = await InProcessRWS.run(["ls", "--json"] + server.rwsFlags + [name], home: home)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["link", "notes.txt", "sub dir"])
        #expect(entries[0]["kind"] as? String == "symlink" && entries[0]["symlinkTarget"] as? String == "notes.txt")
        #expect(entries[1]["size"] as? Int == 6 && entries[1]["permissions"] as? String == "0640")
        #expect(entries[1]["modified"] as? String == "2023-11-14T22:13:20Z" && entries[1]["path"] as? String == name + "/notes.txt")
        #expect(entries[2]["kind"] as? String == "directory")
    }

    @Test(arguments: ServerKind.allCases)
    func lsErrorsAreOneLineOrJSONWithExitStatusOne(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let plain = await InProcessRWS.run(["ls"] + server.rwsFlags + ["/no/such/dir"], home: home)
        #expect(plain.stderr == "rws: /no/such/dir: no such file or directory\n")
        #expect(plain.status == 1)
        let json = await InProcessRWS.run(["ls", "--json"] + server.rwsFlags + ["/no/such/dir"], home: home)
        #expect(json.stdout == #"{"error":"/no/such/dir: no such file or directory","exitCode":1,"type":"error"}"# + "\n")
        #expect(json.status == 1)
    }

    @Test(arguments: ServerKind.allCases)
    func catWritesTheFileFromAnOffsetOnAServerWithoutSFTPToo(kind: ServerKind) async throws {
        for server in [try SharedTestServer.get(kind), try TestSSHServer(kind, .init(sftp: false))] {
            let name = try makeTree(server)
            let whole = await InProcessRWS.run(["cat"] + server.rwsFlags + [name + "/notes.txt"], home: home)
            #expect(whole.stdout == "hello\n" && whole.status == 0)
            let tail = await InProcessRWS.run(["cat", "--offset", "2"] + server.rwsFlags + [name + "/notes.txt"], home: home)
            #expect(tail.stdout == "llo\n")
            let missing = await InProcessRWS.run(["cat"] + server.rwsFlags + [name + "/missing"], home: home)
            #expect(missing.stderr == "rws: \(name)/missing: no such file or directory\n" && missing.status == 1)
        }
    }
}
