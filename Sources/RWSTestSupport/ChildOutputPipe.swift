import Foundation
import Platform

/// A pipe for the output of a program a test starts with Foundation's `Process`, made
/// close-on-exec: the program gets its own copy (`dup2` clears the flag), no other child does.
///
/// Foundation's `Pipe` makes inheritable descriptors, and `Process.run` on Linux closes in the
/// child only the descriptors open when it looked: a pipe made by one test while another test's
/// `run` was between looking and spawning went to that test's child too (seen: 4 pipes in 300
/// beside a thread starting `sleep 3`s; none with these). Its output then did not end until
/// that child did, so a test waiting for the end timed out on a program long gone.
/// For a program the test waits for to its end, ``Spawn/capture(_:_:environment:directory:stdin:mergingErrors:timeout:)``
/// is the way (files, not pipes); this is for output read while the program runs.
public final class ChildOutputPipe: Sendable {
    /// The end this process reads.
    public let reading: FileHandle
    /// The end to hand to `Process` as `standardOutput` or `standardError`; close it with
    /// ``closeChildEnd()`` once the program runs.
    public let forChild: FileHandle

    /// A new pipe, both ends close-on-exec and blocking.
    public init() throws {
        do throws(SystemCallError) {
            let (read, write) = try SystemCall.pipe()
            reading = FileHandle(fileDescriptor: read, closeOnDealloc: true)
            forChild = FileHandle(fileDescriptor: write, closeOnDealloc: true)
            try SystemCall.setBlocking(read)
            try SystemCall.setBlocking(write)
        } catch {
            throw TestServerError.commandFailed("a pipe for a child's output: \(error.description)")
        }
    }

    /// Closes this process's copy of the child's end, so the output ends when the child's does.
    public func closeChildEnd() {
        try? forChild.close()
    }
}
