import Foundation

/// The memory this process may use, in bytes: the fewest of the machine's physical memory
/// (`ProcessInfo.physicalMemory`) and the memory limits of its cgroup and that cgroup's ancestors
/// (cgroup v2 `memory.max`, `max` for none; cgroup v1 `memory.limit_in_bytes`, a value near
/// 2^63 for none; the kernel's cgroup-v2.rst and cgroup-v1/memory.rst).
///
/// A Slurm job's `--mem` (`sbatch --mem`, `launcher.memory`), `docker run --memory`, Kubernetes
/// memory limits and systemd's `MemoryMax=` all set the cgroup limit; a process that allocates past
/// it is killed by the kernel's out-of-memory killer, without a message of its own, so the checks
/// that refuse work too large for memory compare with this, not with the machine's memory (a
/// 4-GB Slurm job on a 256-GB node would otherwise pass them and be killed). The JVM and Go's
/// runtime read the same limit for the same reason. A limit that cannot be read is left out.
public enum ProcessMemory {
    /// The bytes this process may use (see the type's description), at least 1. Read afresh on every call.
    public static func availableBytes() -> UInt64 {
        let physical = max(1, ProcessInfo.processInfo.physicalMemory)
        return min(physical, cgroupLimitBytes() ?? physical)
    }

    /// The tightest cgroup memory limit on the path from this process's cgroup to the root, in
    /// bytes, or nil when there is none or no cgroup file can be read.
    ///
    /// - Parameters:
    ///   - membership: The text of `/proc/self/cgroup`.
    ///   - root: Where the hierarchies are mounted.
    ///   - read: Reads a file's text, nil if it cannot.
    static func cgroupLimitBytes(
        membership: String? = ControlGroups.readFile("/proc/self/cgroup"),
        root: String = "/sys/fs/cgroup",
        read: (String) -> String? = ControlGroups.readFile
    ) -> UInt64? {
        ControlGroups.tightest(
            controller: "memory", membership: membership, root: root,
            v2: { folder in read(folder + "/memory.max").flatMap(bytes(limit:)) },
            v1: { folder in read(folder + "/memory.limit_in_bytes").flatMap(bytes(limit:)) })
    }

    /// The bytes a memory limit file allows: a decimal byte count; nil for `max` (cgroup v2: no
    /// limit), for v1's "no limit" (`PAGE_COUNTER_MAX` pages, printed as 2^63 − 1 rounded down to
    /// a page: any value of 2^62 or more is taken as none) and for anything unreadable.
    static func bytes(limit text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = UInt64(trimmed), value < 1 << 62 else { return nil }
        return value
    }
}
