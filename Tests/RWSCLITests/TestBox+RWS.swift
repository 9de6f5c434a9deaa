import RWSTestSupport

extension TestBox {
    /// Runs `rws` in-process with the box's local home and, after the subcommand, the flags that
    /// point it at the box: on a server of the box's own only the server's, since the box's
    /// folders are rws's defaults there (so the defaults are what runs); on a shared server, the
    /// box's workspace root and Claude data folder too.
    func rws(_ arguments: [String], stdin: String = "") async -> InProcessRWS.Outcome {
        let flags = ownsServer ? server.rwsFlags : rwsFlags
        return await InProcessRWS.run([arguments[0]] + flags + arguments.dropFirst(), stdin: stdin, home: localHome)
    }
}
