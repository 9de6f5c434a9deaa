import Foundation
import RWSTestSupport
import Testing

/// The libdispatch defect behind the known issue of ``FollowDescriptorExhaustionTests``, shown
/// without rws or Swift: a C program on the toolchain's libdispatch alone
/// (`scripts/lib/libdispatch_workq_emfile.c`) keeps a global queue busy and brings its limit on
/// open files down to three. Once a second libdispatch opens /proc/TID/stat of its workers while
/// work waits, and traps when it cannot; with the limit left as it was the same work ends well.
/// Once a libdispatch in a Swift toolchain no longer traps there, the first case fails: the known
/// issue is then to be dropped and the tests made to judge every end.
@Suite(.timeLimit(.minutes(1))) struct LibdispatchDescriptorTrapTests {
    @Test func libdispatchTrapsWhenItsPoolMonitorHasNoDescriptorLeft() throws {
        let ended = try Spawn.capture(try Self.build(), [], environment: [:], timeout: .seconds(30))
        #expect(ended.signal == SIGILL, "the trap did not show (status \(ended.status)): is libdispatch fixed? \(ended.stderr)")
    }

    @Test func theSameWorkWithTheLimitAsItWasEndsWell() throws {
        let ended = try Spawn.capture(try Self.build(), ["--keep-limit"], environment: [:], timeout: .seconds(30))
        #expect(ended.signal == nil && ended.status == 0, "\(ended.status) \(ended.stderr)")
    }

    /// The folder of the libdispatch this test process runs on: the toolchain's `lib/swift/linux`.
    private static func libdispatchFolder() throws -> String {
        // Read to the end: procfs files say they are empty, and a read by size gets nothing.
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libdispatch.so") }),
            let path = line.split(separator: " ").last
        else { throw TestServerError.commandFailed("this test process has no libdispatch.so mapped") }
        return URL(fileURLWithPath: String(path)).deletingLastPathComponent().path
    }

    /// The reproduction, compiled with the toolchain's clang against its libdispatch, once per
    /// test process; cases side by side may both compile it, each putting its copy in place with
    /// one atomic rename.
    private static func build() throws -> String {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("rws-workq-emfile-\(getpid())").path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let library = try libdispatchFolder()
        let toolchain = URL(fileURLWithPath: library).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/libdispatch_workq_emfile.c").path
        let fresh = binary + ".\(UUID().uuidString.prefix(8))"
        let built = try Spawn.capture(
            toolchain + "/bin/clang",
            [
                "-Wall", "-Werror", "-I", toolchain + "/lib/swift", "-o", fresh, source, "-L", library, "-Wl,-rpath," + library,
                "-ldispatch",
            ], environment: ["PATH": "/usr/bin:/bin"])
        guard built.status == 0, rename(fresh, binary) == 0 else {
            try? FileManager.default.removeItem(atPath: fresh)
            throw TestServerError.commandFailed("clang \(source): \(String(decoding: built.output + built.errors, as: UTF8.self))")
        }
        return binary
    }
}
