/// A piece of a streaming command's output, in the order it arrived.
public enum CommandOutputEvent: Sendable, Equatable {
    /// Bytes from the command's standard output.
    case stdout([UInt8])
    /// Bytes from the command's standard error.
    case stderr([UInt8])

    var byteCount: Int {
        switch self {
        case .stdout(let bytes), .stderr(let bytes): return bytes.count
        }
    }
}
