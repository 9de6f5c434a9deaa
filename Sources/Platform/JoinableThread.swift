import Glibc
import Synchronization

/// A POSIX thread that can be waited for until it has fully exited (its thread-local
/// destructors included), or let go: every one is joined or detached exactly once, at the
/// latest when the handle is released.
///
/// Foundation's `Thread` cannot be joined: a program that exits while such a thread still
/// tears down (OpenSSL frees its per-thread state at thread exit) races that teardown.
public final class JoinableThread: Sendable {
    private enum State {
        case running(pthread_t)
        /// One caller waits in `pthread_join`; others wait for it to return.
        case joining
        case ended
    }

    private let state: Mutex<State>

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
        state = Mutex(.running(created))
    }

    /// Waits until the thread has exited, whoever calls and however many at once: one caller
    /// joins it, the others wait until that join has returned. At once when it was already
    /// joined or detached, or when called on the thread itself (which cannot wait for its own end).
    public func join() {
        let action = state.withLock { state -> (join: pthread_t?, wait: Bool) in
            switch state {
            case .running(let thread):
                state = .joining
                return (thread, false)
            case .joining: return (nil, true)
            case .ended: return (nil, false)
            }
        }
        if let thread = action.join {
            if pthread_equal(thread, pthread_self()) != 0 {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
            state.withLock { $0 = .ended }
        } else if action.wait {
            // The joining caller only waits for the thread's last instants (its thread-local
            // destructors): a short poll, and no second lock type.
            while state.withLock({ if case .joining = $0 { true } else { false } }) { usleep(1_000) }
        }
    }

    /// Lets the thread end on its own.
    public func detach() {
        let thread = state.withLock { state -> pthread_t? in
            guard case .running(let thread) = state else { return nil }
            state = .ended
            return thread
        }
        if let thread { pthread_detach(thread) }
    }

    deinit { detach() }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
