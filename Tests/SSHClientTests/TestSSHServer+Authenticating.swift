import RWSTestSupport
import SSHClient

extension TestSSHServer {
    /// Connects with only `methods` to authenticate with, then closes: the authentication tests' one step.
    func connectAndClose(authenticating methods: [AuthenticationMethod]) async throws {
        var configuration = configuration()
        configuration.authentication = methods
        await (try await SSHConnection.connect(configuration)).close()
    }
}
