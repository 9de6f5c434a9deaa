import Foundation
import RWSTestSupport
import Testing

/// What the test support starts holds none of the test process's descriptors. Foundation's `Pipe`
/// makes inheritable ones, and a server started while another test's command had its pipes open
/// kept their write ends: that command's output did not end until the server did.
@Suite struct SpawnInheritanceTests {
    /// An inheritable pipe of this process, as `/proc` names it.
    static func openPipe() throws -> (pipe: Pipe, name: String) {
        let pipe = Pipe()
        let name = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)")
        #expect(name.hasPrefix("pipe:"))
        return (pipe, name)
    }

    @Test func aProgramTheTestsRunHoldsNoDescriptorOfTheTestProcess() throws {
        let (pipe, name) = try Self.openPipe()
        let held = try Shell.sh(#"for f in /proc/$$/fd/*; do readlink "$f" || :; done"#)
        #expect(!held.isEmpty)
        #expect(!held.contains(name), "the child holds the test process's \(name)")
        withExtendedLifetime(pipe) {}
    }

    @Test(arguments: ServerKind.allCases)
    func aServerHoldsNoDescriptorOfTheTestProcess(kind: ServerKind) throws {
        let (pipe, name) = try Self.openPipe()
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let pid = try #require(
            Int32(try String(contentsOfFile: server.pidFilePath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let held = LocalProcessTable.descriptors(of: pid)
        #expect(!held.isEmpty)
        #expect(!held.contains(name), "the \(kind) server holds the test process's \(name): \(held)")
        withExtendedLifetime(pipe) {}
    }

    /// Foundation's `Process` closes in its child only what was open when it looked, so a pipe
    /// made meanwhile by another test reaches that child unless it is close-on-exec.
    @Test func aChildOutputPipeIsCloseOnExecAndStillReachesTheChildItIsGivenTo() throws {
        let pipe = try ChildOutputPipe()
        for handle in [pipe.reading, pipe.forChild] {
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(handle.fileDescriptor)", encoding: .utf8)
            let flags = try #require(
                info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap {
                    Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
                })
            #expect(flags & Int(O_CLOEXEC) != 0, "\(info)")
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "echo reached"]
        child.standardOutput = pipe.forChild
        try child.run()
        pipe.closeChildEnd()
        #expect(String(decoding: pipe.reading.readDataToEndOfFile(), as: UTF8.self) == "reached\n")
        child.waitUntilExit()
    }
}
