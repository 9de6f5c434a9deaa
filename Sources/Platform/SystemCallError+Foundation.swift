import Foundation

extension SystemCallError {
    /// The system error under a Foundation file error, said in the C library's words: the `errno`
    /// Foundation keeps (its own code or the underlying POSIX error), else the nearest one for its
    /// Cocoa code. rws shows this ``reason``, never Foundation's own sentence for the error.
    public init(_ call: String, describing error: any Error) {
        if let error = error as? SystemCallError {
            self = error
            return
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            self.init(call, code: Int32(nsError.code))
        } else if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            self.init(call, code: Int32(underlying.code))
        } else if nsError.domain == NSCocoaErrorDomain, let code = Self.errno(forCocoaCode: nsError.code) {
            self.init(call, code: code)
        } else {
            self.init(call, code: EIO, reason: "an unexpected error (code \(nsError.code))")
        }
    }

    private static func errno(forCocoaCode code: Int) -> Int32? {
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return EINVAL
        default: return nil
        }
    }
}
