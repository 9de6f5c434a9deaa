/// The rules for a branch (or tag) given to `git clone --branch`, following `git check-ref-format`.
public enum BranchName {
    /// Checks `branch`: not empty, no leading `-`, no whitespace or control characters, none of
    /// `~ ^ : ? * [ \`, no `..` or `@{`, not ending in `/`, `.` or `.lock`.
    ///
    /// - Throws: ``ProjectError/invalidBranch(_:reason:)``.
    public static func validate(_ branch: String) throws(ProjectError) {
        let rule = "a branch name may not be empty, start with '-', or hold spaces, control characters, '..', '@{' or any of ~^:?*[\\"
        func refuse() -> ProjectError { .invalidBranch(branch, reason: rule) }
        guard !branch.isEmpty, !branch.hasPrefix("-"), !branch.hasPrefix("/"), branch.utf8.count <= 255 else { throw refuse() }
        guard !branch.contains(".."), !branch.contains("@{"), !branch.hasSuffix("/"), !branch.hasSuffix("."),
            !branch.hasSuffix(".lock")
        else { throw refuse() }
        if branch.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || "~^:?*[\\".unicodeScalars.contains($0) }) {
            throw refuse()
        }
    }
}
