internal import CHDF5

/// Facts about the HDF5 C library that this module is linked against.
public enum HDF5Library {
    /// The HDF5 library's version as `major.minor.release`, for example `"1.10.8"`.
    ///
    /// Read from `H5get_libversion`, so it names the library loaded at run time rather than the
    /// headers the package was compiled against.
    public static var version: String {
        HDF5Lock.withLock {
            var major: UInt32 = 0
            var minor: UInt32 = 0
            var release: UInt32 = 0
            // H5get_libversion only copies three integers; it has no failure mode to report.
            _ = H5get_libversion(&major, &minor, &release)
            return "\(major).\(minor).\(release)"
        }
    }
}
