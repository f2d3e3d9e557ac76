internal import CHDF5
import Foundation

/// The one lock every HDF5 call goes through.
///
/// The serial HDF5 library (Debian's `libhdf5-serial`) keeps global state (identifier tables,
/// the error stack, caches) without any locking of its own, so no two of its functions may run
/// at the same time. The lock is recursive because wrapper methods call one another.
///
/// It is `package` because the `MATLAB` module takes it for every libmatio call: libmatio reads
/// and writes MAT 7.3 files through the same libhdf5, so its calls must not overlap ours.
package enum HDF5Lock {
    private static let lock = NSRecursiveLock()
    /// `H5dont_atexit()`, run once, before HDF5 initializes itself (a global `let` is lazy and
    /// initialized exactly once).
    private static let skipTeardownAtExit: Void = { _ = H5dont_atexit() }()

    /// Runs `body` while holding the HDF5 lock.
    ///
    /// Also turns off HDF5's automatic printing of error stacks to stderr, since failures are
    /// reported through ``HDF5Error`` with the same text. That setting is per thread when HDF5 is
    /// built thread-safe (Debian's serial build is), so it is applied on every entry: it only
    /// stores two pointers.
    ///
    /// The first call also asks HDF5 not to tear itself down at process exit (`H5dont_atexit`,
    /// which must precede every other HDF5 call): libhdf5 1.10.8 keeps a file whose `H5Fclose`
    /// failed (a full disk) registered in a half-destroyed state, and its exit handler then
    /// crashed the process with SIGSEGV after the error had been reported. Every file is closed
    /// explicitly, so the teardown has nothing left to do for a run that ends normally.
    package static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        _ = skipTeardownAtExit
        _ = H5Eset_auto2(actionlab_H5E_DEFAULT(), nil, nil)
        return try body()
    }
}
