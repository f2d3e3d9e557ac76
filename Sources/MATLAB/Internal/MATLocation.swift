/// Where a libmatio operation happens, and the helpers that turn its results into ``MATFileError``.
///
/// Every check must run inside ``MatioLog/withLock(_:)``, right after the C call it checks, so
/// that the messages it takes belong to that call.
struct MATLocation: Sendable {
    var filePath: String
    var variable: String?

    /// An error at this location carrying libmatio's logged messages (which are cleared).
    func error(_ kind: MATFileError.Kind) -> MATFileError {
        MATFileError(kind: kind, filePath: filePath, variable: variable, matioMessage: MatioLog.takeProblems())
    }

    /// An error at this location found by the wrapper itself, with `message` as the explanation.
    func error(_ kind: MATFileError.Kind, message: String) -> MATFileError {
        MATFileError(kind: kind, filePath: filePath, variable: variable, matioMessage: message)
    }

    /// Returns `pointer` if libmatio returned one, else throws `kind`.
    func check<Pointee>(pointer: UnsafeMutablePointer<Pointee>?, _ kind: MATFileError.Kind) throws -> UnsafeMutablePointer<Pointee> {
        guard let pointer else { throw error(kind) }
        return pointer
    }

    /// Throws `kind` if `status` is non-zero (libmatio's failure convention for `int` results).
    func check(status: Int32, _ kind: MATFileError.Kind) throws {
        guard status == 0 else { throw error(kind) }
    }

    /// Throws `kind` if libmatio logged a problem during the last call even though it returned a
    /// result: it reads a truncated MAT 5 file to the end, logs "read beyond EOF" and pads the
    /// missing values with zeros, so its log is the only sign that the values are not the file's.
    func checkNothingLogged(_ kind: MATFileError.Kind) throws {
        guard !MatioLog.hasProblems else { throw error(kind) }
    }

    /// This location naming a variable of its file.
    func variable(_ name: String) -> MATLocation {
        MATLocation(filePath: filePath, variable: name)
    }
}
