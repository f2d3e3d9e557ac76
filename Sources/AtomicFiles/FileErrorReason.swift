import Foundation

/// Plain reasons for the errors of file operations, for messages that name the file themselves.
///
/// Foundation's file errors print as `Error Domain=NSCocoaErrorDomain Code=516 "…" UserInfo={…}`
/// and their `localizedDescription` is often `The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)`; the system's reason (`Not a directory`) is in the error's
/// underlying error, a `POSIXError` on Linux (not bridged to `NSError` there).
public enum FileErrorReason {
    /// The reason `error` gives: the POSIX reason inside a Foundation file error (`File exists`,
    /// `Not a directory`, `File name too long`, `Permission denied`), else a short phrase for its
    /// code; any other error by its own description (ActionLab's errors name file and line).
    public static func of(_ error: Error) -> String {
        if let posix = error as? POSIXError { return text(of: posix.code.rawValue) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return text(of: Int32(truncatingIfNeeded: ns.code)) }
        guard ns.domain == NSCocoaErrorDomain else { return "\(error)" }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] {
            if let posix = underlying as? POSIXError { return text(of: posix.code.rawValue) }
            if let nested = underlying as? NSError, nested.domain == NSPOSIXErrorDomain {
                return text(of: Int32(truncatingIfNeeded: nested.code))
            }
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return text(of: ENOENT)
        case .fileWriteFileExists: return text(of: EEXIST)
        case .fileReadNoPermission, .fileWriteNoPermission: return text(of: EACCES)
        case .fileWriteOutOfSpace: return text(of: ENOSPC)
        case .fileWriteVolumeReadOnly: return text(of: EROFS)
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the file name is invalid"
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "not text in the expected encoding"
        default: return ns.localizedDescription
        }
    }

    /// `error` as a message of its own: a Foundation file error as `<its file>: <reason>`
    /// (``of(_:)``), any other error by its description. For errors that reach the user without
    /// a message around them.
    public static func message(_ error: Error) -> String {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain else { return of(error) }
        let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        return path.map { "\($0): \(of(error))" } ?? of(error)
    }

    /// `strerror`'s text for `code`.
    private static func text(of code: Int32) -> String { String(cString: strerror(code)) }
}
