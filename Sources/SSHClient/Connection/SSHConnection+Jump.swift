import Foundation

extension SSHConnection {
    /// Opens a `direct-tcpip` channel from this server to `host`:`port` and relays it to `fd`
    /// (one end of a socket pair), which the relay then owns and closes. Returns once the server
    /// opened the channel. This connection is dedicated to the relay: it closes when the relay ends.
    func openRelay(to host: String, port: Int, fd: Int32) async throws {
        let opened = Promise<Void>()
        let owner = self
        if let error = loop.submit({ loop in
            loop.enqueue(DirectTCPIPChannel(loop: loop, host: host, port: port, fd: fd, owner: owner, opened: opened))
        }) {
            TCPSocket(fd: fd).closeDescriptor()
            throw error
        }
        try await opened.value()
    }
}
