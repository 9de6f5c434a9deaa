import Foundation

/// Fails loudly, with the install command, when a program the tests need is missing.
public enum Prerequisites {
    /// Throws ``TestServerError/missingPrerequisite(path:installCommand:)`` unless `path` is executable.
    public static func require(_ path: String, package: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError.missingPrerequisite(path: path, installCommand: "sudo apt-get install -y \(package)")
        }
    }
}
