import Foundation
import Platform

/// Keeps the test process's descriptors out of the programs the test support starts.
///
/// `posix_spawn` passes a child every descriptor that is not close-on-exec, and Foundation's
/// `Pipe` makes such: a server started while another test's command had its pipes open kept their
/// write ends, so that command's output did not end until the server did (sshd closes what it
/// inherits; dropbear, the shells and the `rws` binary do not).
enum InheritedDescriptors {
    /// Has the child close every descriptor above stderr, after the actions added before.
    static func close(in actions: inout posix_spawn_file_actions_t) throws {
        do {
            try SystemCall.addCloseAll(from: 3, to: &actions)
        } catch {
            throw TestServerError.startFailed(error.description)
        }
    }
}
