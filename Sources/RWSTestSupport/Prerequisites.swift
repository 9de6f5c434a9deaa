import Foundation

/// Fails loudly, with the install command, when a program the tests need is missing.
public enum Prerequisites {
    /// Throws ``TestServerError/missingPrerequisite(path:installCommand:)`` unless `path` is executable.
    public static func require(_ path: String, package: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError.missingPrerequisite(path: path, installCommand: "sudo apt-get install -y \(package)")
        }
    }

    /// Throws ``TestServerError/missingPrerequisite(path:installCommand:)`` unless `python` can
    /// import `module` (`python -c 'import module'`); `package` is the Debian package that has it.
    public static func requirePythonModule(_ module: String, python: String, package: String) throws {
        let imported = try? Spawn.capture(python, ["-c", "import \(module)"], environment: nil)
        guard imported?.status == 0 else {
            throw TestServerError.missingPrerequisite(
                path: "the Python module \(module) (for \(python))", installCommand: "sudo apt-get install -y \(package)")
        }
    }
}
