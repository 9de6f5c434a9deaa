import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// A sectioned script read in two parts: the caller gets the sections before a marker while the
/// script still runs, the rest after, and a failure on either side stops the script.
@Suite struct SplitSectionsTests {
    /// Prints a section, then (but for `fail`) the marker, then waits or quits as `mode` says,
    /// then the rest. It never reads its input.
    static let script = RemoteScript(
        step: "testing a split",
        body: #"""
            b=$1 f=$2 mode=$3
            printf '\n%s first\nbytes\n' "$b"
            if [ "$mode" = fail ]; then echo 'no such folder' >&2; exit 3; fi
            printf '\n%s counting\n' "$b"
            case $mode in
              wait) while [ ! -e "$f" ]; do sleep 0.05; done ;;
              hang) sleep 300 ;;
              quit) echo 'gave up' >&2; exit 4 ;;
            esac
            printf '\n%s counts 1\nlater\n' "$b"
            printf '\n%s end\n' "$b"
            """#)

    struct FirstPartFailed: Error {}

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rws-split-\(UUID().uuidString)").path
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func theFirstPartArrivesWhileTheScriptStillRuns(place: ScriptPlace) async throws {
        let flag = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: flag) }
        let (first, rest, bytes) = try await place.withHost { host in
            // The script ends only once the first part's work has made the file it waits for.
            try await Self.script.sections(on: host, [.path(flag), .word("wait")], input: [], splitAt: "counting") { sections, marker in
                #expect(marker == "counting")
                _ = FileManager.default.createFile(atPath: flag, contents: nil)
                return sections
            }
        }
        #expect(first.map(\.header) == ["first"])
        #expect(first.map { String(decoding: $0.content, as: UTF8.self) } == ["bytes\n"])
        #expect(rest.map(\.header) == ["counts 1"])
        #expect(rest.map { String(decoding: $0.content, as: UTF8.self) } == ["later\n"])
        #expect(bytes > 0)
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aMarkerThatArrivesWithTheEndStillSplits(place: ScriptPlace) async throws {
        let (first, rest, _) = try await place.withHost { host in
            try await Self.script.sections(on: host, [.path("/nonexistent"), .word("at-once")], input: [], splitAt: "counting") {
                first, _ in first
            }
        }
        #expect(first.map(\.header) == ["first"])
        #expect(rest.map(\.header) == ["counts 1"])
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aScriptThatFailsBeforeItsMarkerReportsItsOwnFailure(place: ScriptPlace) async throws {
        guard let (status, stderr) = await Self.reportedFailure(mode: "fail", on: place) else { return }
        #expect(status.contains("3") && stderr.contains("no such folder"), "\(status) \(stderr)")
    }

    /// A script that fails without reading the input it was given (more than any pipe holds, so
    /// that writing it fails once the script is gone) reports its own failure, not the write's.
    @Test(arguments: ScriptPlace.localAndDefault)
    func aScriptThatFailsWithoutReadingItsInputReportsItsOwnFailure(place: ScriptPlace) async throws {
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        guard let (status, stderr) = await Self.reportedFailure(mode: "quit", input: input, on: place) else { return }
        #expect(status.contains("4") && stderr.contains("gave up"), "\(status) \(stderr)")
    }

    /// The status and stderr of the failure the script reports when run in `mode` with `input`;
    /// nil (an issue recorded) when it fails otherwise or not at all.
    private static func reportedFailure(mode: String, input: [UInt8] = [], on place: ScriptPlace) async -> (String, String)? {
        let error = await #expect(throws: RemoteSessionError.self) {
            try await place.withHost { host in
                try await script.sections(on: host, [.path("/nonexistent"), .word(mode)], input: input, splitAt: "counting") {
                    first, _ in first
                }
            }
        }
        guard case .remoteCommandFailed(_, let status, let stderr) = error else {
            Issue.record("got \(String(describing: error))")
            return nil
        }
        return (status, stderr)
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func whenTheFirstPartsWorkFailsTheScriptIsStopped(place: ScriptPlace) async throws {
        let marker = Self.temporaryPath()
        let watch = RemoteProcessWatch(markers: marker)
        let started = ContinuousClock.now
        await #expect(throws: FirstPartFailed.self) {
            try await place.withHost { host in
                try await Self.script.sections(on: host, [.path(marker), .word("hang")], input: [], splitAt: "counting") { _, _ in
                    #expect(watch.running().count > 0, "the script runs while the first part is worked on")
                    throw FirstPartFailed()
                }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(try await watch.leftovers(after: 5).isEmpty)
    }
}
