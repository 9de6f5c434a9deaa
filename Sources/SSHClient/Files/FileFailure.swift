/// How a file operation failed inside the library: at the file level (the connection is fine)
/// or at the connection level.
enum FileFailure: Error {
    case file(RemoteFileError)
    case connection(SSHError)

    /// The error a caller sees.
    var thrown: any Error {
        switch self {
        case .file(let error): return error
        case .connection(let error): return error
        }
    }
}

/// Where a loop-side file operation delivers its outcome: a promise whose failure is the
/// connection's ``SSHError`` and whose value carries the file-level result.
typealias FilePromise<T: Sendable> = Promise<Result<T, RemoteFileError>>

extension Promise {
    /// Completes a ``FilePromise`` from a loop-side outcome.
    func settle<T>(_ outcome: Result<T, FileFailure>) where Value == Result<T, RemoteFileError> {
        switch outcome {
        case .success(let value): complete(.success(.success(value)))
        case .failure(.file(let error)): complete(.success(.failure(error)))
        case .failure(.connection(let error)): complete(.failure(error))
        }
    }

    /// Waits for a ``FilePromise`` and returns its value or throws its error.
    func fileValue<T>() async throws -> T where Value == Result<T, RemoteFileError> {
        try await value().get()
    }
}
