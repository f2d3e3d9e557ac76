#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system paths matching a glob pattern, through POSIX `glob(3)`.
public enum GlobPattern {
    /// The paths that match `pattern`, sorted by byte order so that lists are reproducible.
    ///
    /// - Parameter pattern: An absolute path with `*`, `?` and `[...]` wildcards (`glob(3)`; no
    ///   brace or tilde expansion). A wildcard matches no leading `.` of a name.
    /// - Returns: The matching paths; empty when nothing matches or the pattern cannot be read.
    public static func matches(of pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for index in 0..<Int(result.gl_pathc) {
            if let path = result.gl_pathv[index] { paths.append(String(cString: path)) }
        }
        return paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
