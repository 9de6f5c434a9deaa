import RWSTestSupport
import SSHClient
import Testing

/// What a test that waited too long can ask a connection: where each of its channels stands.
@Suite struct ChannelDiagnosticsTests {
    @Test(arguments: ServerKind.allCases)
    func eachChannelSaysWhereItStandsAndTheTurnsSayWhoHoldsThem(kind: ServerKind) async throws {
        let seconds = RemoteProcesses.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { connection in
            let remote = try connection.stream("echo started; sleep \(seconds)")
            var iterator = remote.output.makeAsyncIterator()
            #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
            let said = await connection.channelDiagnostics()
            #expect(said.hasPrefix("ExecChannel running"), "\(said)")
            #expect(said.hasSuffix("; open turn: free, request turn: free"), "\(said)")
            remote.cancel()
        }
        #expect(RemoteProcesses.matching("sleep \(seconds)") == [])
    }
}
