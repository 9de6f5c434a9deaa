import Foundation
import Platform
import Synchronization

/// Every file descriptor of this process taken, as when an app embedding the library has used
/// them up: the soft limit brought down near what is open (opening a million would take a while),
/// then /dev/null opened until `EMFILE`. ``release()`` gives them back and restores the limit.
///
/// It holds for the whole process: a test using it runs where no other test shares the process.
public final class DescriptorExhaustion: Sendable {
    private let held: Mutex<[Int32]>
    private let limit: UInt64

    /// Takes every descriptor left, after lowering the soft limit to `headroom` above those open now.
    public init(headroom: Int = 64) throws {
        limit = SystemCall.openFileLimit().soft
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        guard SystemCall.setOpenFileLimit(to: UInt64(open + headroom)) else {
            throw TestServerError.commandFailed("cannot lower the open-file limit to \(open + headroom)")
        }
        var held: [Int32] = []
        while true {
            let fd = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            held.append(fd)
        }
        self.held = Mutex(held)
    }

    /// The descriptors taken.
    public var count: Int { held.withLock { $0.count } }

    /// Closes what was taken and puts the limit back; once.
    public func release() {
        let taken = held.withLock { held in
            defer { held = [] }
            return held
        }
        guard !taken.isEmpty else { return }
        for fd in taken { Glibc.close(fd) }
        SystemCall.setOpenFileLimit(to: limit)
    }
}
