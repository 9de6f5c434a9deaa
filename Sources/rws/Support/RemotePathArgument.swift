/// A path argument on the box must name something: an empty one is a usage error (exit 64),
/// reported before connecting, whether or not the box is reachable.
func requireRemotePath(_ path: String) throws {
    guard !path.isEmpty else { throw CLIError.usage("the path is empty: give a path on the box") }
}
