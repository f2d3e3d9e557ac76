internal import CHDF5

/// Where an operation happens, and the helpers that turn HDF5 return codes into ``HDF5Error``.
///
/// Every check must run with ``HDF5Lock`` held, right after the C call it checks, so that the
/// error stack it reads belongs to that call.
struct HDF5Location: Sendable {
    var filePath: String
    var objectPath: String?

    /// An error at this location carrying HDF5's current error stack (which is cleared).
    func error(_ kind: HDF5Error.Kind) -> HDF5Error {
        HDF5Error(kind: kind, filePath: filePath, objectPath: objectPath, hdf5Message: HDF5ErrorStack.takeMessage())
    }

    /// An error at this location found by the wrapper itself, with `message` as the explanation.
    func error(_ kind: HDF5Error.Kind, message: String) -> HDF5Error {
        HDF5Error(kind: kind, filePath: filePath, objectPath: objectPath, hdf5Message: message)
    }

    /// Returns `id` if it is a valid identifier (non-negative), else throws `kind`.
    @discardableResult
    func check(id: hid_t, _ kind: HDF5Error.Kind) throws -> hid_t {
        guard id >= 0 else { throw error(kind) }
        return id
    }

    /// Throws `kind` if `status` is negative (HDF5's failure convention for `herr_t`).
    func check(status: herr_t, _ kind: HDF5Error.Kind) throws {
        guard status >= 0 else { throw error(kind) }
    }

    /// Converts an `htri_t` (positive true, zero false, negative failure) to `Bool`.
    func check(tri: htri_t, _ kind: HDF5Error.Kind) throws -> Bool {
        guard tri >= 0 else { throw error(kind) }
        return tri > 0
    }

    /// This location with a child path appended (`/a` + `b` = `/a/b`; absolute children replace).
    func appending(_ child: String) -> HDF5Location {
        HDF5Location(filePath: filePath, objectPath: HDF5Location.join(objectPath ?? "/", child))
    }

    /// This location naming an attribute of its object (`/a/b@name`).
    func attribute(_ name: String) -> HDF5Location {
        HDF5Location(filePath: filePath, objectPath: "\(objectPath ?? "/")@\(name)")
    }

    static func join(_ parent: String, _ child: String) -> String {
        if child.hasPrefix("/") { return child }
        if child.isEmpty || child == "." { return parent }
        return parent.hasSuffix("/") ? parent + child : parent + "/" + child
    }
}
