import Foundation
import Platform

extension SSHConnection {
    /// Opens a `direct-tcpip` channel from this server to `host`:`port` and relays it to `fd`
    /// (a nonblocking socket), which the relay then owns and closes. Returns once the server
    /// opened the channel. A `dedicated` connection (a jump host's) closes when the relay ends;
    /// otherwise the relay runs over the current link, waiting for a reconnect if one is under
    /// way, and owns `fd` only once it returns: after a failure the caller closes it (or tries
    /// again when the link was lost before the channel opened).
    func openRelay(to host: String, port: Int, fd: Int32, dedicated: Bool = true) async throws {
        let opened = Promise<Void>()
        let owner: SSHConnection? = dedicated ? self : nil
        let loop: ConnectionLoop
        do {
            loop = dedicated ? self.loop : try await link.usableLoop()
        } catch {
            if dedicated { TCPSocket(fd: fd).closeDescriptor() }
            throw error
        }
        if let error = loop.submit({ loop in
            do throws(SystemCallError) {
                loop.enqueue(try DirectTCPIPChannel(loop: loop, host: host, port: port, fd: fd, owner: owner, opened: opened))
            } catch {
                if dedicated { TCPSocket(fd: fd).closeDescriptor() }
                let reason = error.reason(advising: nil)
                opened.complete(.failure(SSHError.channelFailed(operation: "relaying a connection to \(host):\(port)", reason: reason)))
            }
        }) {
            if dedicated { TCPSocket(fd: fd).closeDescriptor() }
            throw error
        }
        try await opened.value()
    }
}
