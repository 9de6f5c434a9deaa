import Testing

@testable import SessionHistory

@Suite struct NamingTests {
    // Examples from SCHEMA-NOTES §11 (real folder names quoted in issues and listings).
    @Test(arguments: [
        ("/Users/ali/.claude/projects", "-Users-ali--claude-projects"),
        ("/home/user/my_example_workspace", "-home-user-my-example-workspace"),
        (#"C:\git\cc-plus"#, "C--git-cc-plus"),
        (#"D:\桌面\资料\matlab综合"#, "D--------matlab--"),
        ("/a/b c+d@e~f", "-a-b-c-d-e-f"),
    ])
    func everyCharacterOutsideAlphanumericsBecomesADash(_ path: String, _ folder: String) {
        #expect(ProjectFolderName.encode(path) == folder)
    }

    @Test func anEmojiIsTwoUTF16UnitsSoTwoDashes() {
        #expect(ProjectFolderName.encode("/x/😀") == "-x---")
    }

    @Test func longPathsAreCutAt200AndGetTheJavaScriptHash() {
        let path = "/" + String(repeating: "a", count: 250)

        let folder = ProjectFolderName.encode(path)

        // The hash computed with the SDK's Python `_simple_hash` on the same string.
        #expect(folder == "-" + String(repeating: "a", count: 199) + "-" + ProjectFolderName.hash(path))
        #expect(ProjectFolderName.hash(path) == "feo44x")
        #expect(ProjectFolderName.matches(folderName: String(folder.prefix(200)) + "-otherhash", path: path))
    }

    @Test func shortPathsMatchOnlyTheirExactName() {
        #expect(ProjectFolderName.matches(folderName: "-a-b", path: "/a/b"))
        #expect(!ProjectFolderName.matches(folderName: "-a-b-", path: "/a/b"))
    }
}
