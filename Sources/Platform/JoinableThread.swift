import Glibc
import Synchronization

/// A POSIX thread that can be waited for until it has fully exited (its thread-local
/// destructors included), or let go: every one is joined or detached exactly once, at the
/// latest when the handle is released.
///
/// Foundation's `Thread` cannot be joined: a program that exits while such a thread still
/// tears down (OpenSSL frees its per-thread state at thread exit) races that teardown.
public final class JoinableThread: Sendable {
    private let thread = Mutex<pthread_t?>(nil)

    /// Starts `body` on a new thread with a stack of `stackSize` bytes.
    public init(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var created = pthread_t()
        let rc = pthread_create(
            &created, &attributes,
            { pointer in
                Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemCallError("pthread_create", code: rc)
        }
        thread.withLock { $0 = created }
    }

    /// Waits until the thread has exited; at once when it was already joined or detached, or when
    /// called on the thread itself (which cannot wait for its own end).
    public func join() {
        guard let running = take() else { return }
        if pthread_equal(running, pthread_self()) != 0 {
            pthread_detach(running)
        } else {
            pthread_join(running, nil)
        }
    }

    /// Lets the thread end on its own.
    public func detach() {
        if let running = take() { pthread_detach(running) }
    }

    private func take() -> pthread_t? {
        thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
    }

    deinit { detach() }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
