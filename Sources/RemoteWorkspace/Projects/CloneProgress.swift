/// One stage of `git clone`, in the order git goes through them.
public enum ClonePhase: String, Sendable, Equatable, Comparable, CaseIterable, Codable {
    /// The server lists the objects to send (`remote: Enumerating objects`).
    case enumerating
    /// The server counts them (`remote: Counting objects`).
    case counting
    /// The server deltifies them (`remote: Compressing objects`).
    case compressing
    /// A push sends its pack (`Writing objects`); a clone has no such phase.
    case writing
    /// The pack arrives (`Receiving objects`).
    case receiving
    /// Deltas are applied (`Resolving deltas`).
    case resolvingDeltas
    /// The received objects are checked (`Checking objects`, with `transfer.fsckObjects`).
    case checkingObjects
    /// The new history is checked for completeness (`Checking connectivity`).
    case checkingConnectivity
    /// The working tree is written (`Updating files`, `Checking out files`).
    case checkingOut

    /// git's label for the phase, as it prints it.
    public var label: String {
        switch self {
        case .enumerating: return "Enumerating objects"
        case .counting: return "Counting objects"
        case .compressing: return "Compressing objects"
        case .writing: return "Writing objects"
        case .receiving: return "Receiving objects"
        case .resolvingDeltas: return "Resolving deltas"
        case .checkingObjects: return "Checking objects"
        case .checkingConnectivity: return "Checking connectivity"
        case .checkingOut: return "Updating files"
        }
    }

    public static func < (lhs: ClonePhase, rhs: ClonePhase) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One progress update of a clone, parsed from git's `\r`-separated progress lines.
public struct CloneProgress: Sendable, Equatable, Codable {
    /// The stage.
    public var phase: ClonePhase
    /// Percent done, when git reports a total.
    public var percent: Int?
    /// Objects (or deltas, or files) done.
    public var completed: Int
    /// How many there are in all, when known.
    public var total: Int?
    /// Bytes received so far (receiving only).
    public var bytes: Int64?
    /// Transfer rate in bytes per second (receiving only).
    public var bytesPerSecond: Int64?
    /// Whether git marked the phase `done`.
    public var isDone: Bool

    /// Creates an update.
    public init(
        phase: ClonePhase, percent: Int? = nil, completed: Int, total: Int? = nil,
        bytes: Int64? = nil, bytesPerSecond: Int64? = nil, isDone: Bool = false
    ) {
        self.phase = phase
        self.percent = percent
        self.completed = completed
        self.total = total
        self.bytes = bytes
        self.bytesPerSecond = bytesPerSecond
        self.isDone = isDone
    }
}

/// What ``ProjectManager/cloneProject(from:name:branch:depth:options:onEvent:)`` reports while it runs.
public enum CloneEvent: Sendable, Equatable {
    /// A progress update.
    case progress(CloneProgress)
    /// Any other line git printed ("Cloning into ...", warnings), without a trailing newline.
    case message(String)
}
