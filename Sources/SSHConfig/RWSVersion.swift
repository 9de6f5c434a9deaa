/// The version of rws: the libraries and the `rws` command are released together under one number.
///
/// It lives here, in SSHConfig, the lowest of the libraries: SSHClient and RemoteWorkspace build
/// on it, and `rws --version` prints it (with the commit, when rws was built from a git checkout).
/// `scripts/release` reads the number from this file, so it is written nowhere else.
public enum RWSVersion {
    /// The version number, as [Semantic Versioning](https://semver.org/) writes it: `0.2.0`.
    public static let number = "0.2.0"
}
