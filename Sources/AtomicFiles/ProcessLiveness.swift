import Foundation

/// Whether the process that left a temporary file or a partial folder (named with its pid) is
/// gone, so that what it left can be cleaned up or taken over.
public enum ProcessLiveness {
    /// True when no process `pid` exists (`kill(pid, 0)` fails with `ESRCH`) or it has exited
    /// and waits, a zombie, for its parent to collect it (state `Z` in `/proc/<pid>/stat`, see
    /// proc(5)): a sweep worker whose `actionlab run` was killed is adopted by a process that
    /// may never collect it.
    ///
    /// - Parameter pid: A process id, greater than 0.
    /// - Returns: Whether the process has ended.
    public static func hasEnded(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // `pid (comm) S ...`: the state is the first field after the last ')'.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// This machine's name (`gethostname(2)`) with every `.` and `@` replaced by `_`, so that it
    /// can sit in one dot-separated field of a file name: `node017_cluster_example_org`.
    ///
    /// Writers that share a folder across machines (a feature cache on a cluster's shared file
    /// system) put it beside their pid, because a pid means nothing on another machine.
    public static let hostTag: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let tag = String(name.map { $0 == "." || $0 == "@" ? "_" : $0 })
        return tag.isEmpty ? "unknown" : tag
    }()
}
