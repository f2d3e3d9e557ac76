import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ComputeThreads {
    /// The processors this process may run on, at least 1: the fewest of
    ///
    /// - the machine's online processors (``onlineProcessors``),
    /// - the CPUs of the calling thread's affinity mask (`sched_getaffinity(2)`), which `taskset`,
    ///   Slurm's task binding (`task/affinity`, `task/cgroup`) and cgroup cpusets restrict, and
    /// - the CPU quota of this process's cgroup and its ancestors (`quota / period` rounded up,
    ///   cgroup v2 or v1), which `docker run --cpus`, Kubernetes CPU limits and
    ///   systemd's `CPUQuota=` set.
    ///
    /// Foundation's `activeProcessorCount` is no substitute: on cgroup v2 it ignores both limits
    /// (under `taskset -c 0` on a 2-core machine it says 2, and a 2-CPU Slurm task on a 64-core
    /// node would see 64), and on cgroup v1 it counts only the first range of the root cpuset
    /// (`0,2-3` gives 1). The JVM, .NET and Go's runtime read the same two limits for the same reason.
    /// A limit that cannot be read (no `/proc`, no cgroup file) is left out. Read afresh on every
    /// call; the spinning workers read it once.
    public static func availableProcessors() -> Int {
        var count = onlineProcessors
        if let mask = affinityProcessors() { count = min(count, mask) }
        if let quota = cgroupQuotaProcessors() { count = min(count, quota) }
        return max(1, count)
    }

    /// The machine's online processors (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The CPUs in the calling thread's affinity mask (`sched_getaffinity(2)`'s mask, as
    /// `Cpus_allowed_list` of `/proc/thread-self/status` gives it, proc(5)), or nil if it cannot
    /// be read. Swift's Glibc module does not declare `sched_getaffinity`, a GNU extension.
    static func affinityProcessors(
        status: String? = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
    ) -> Int? {
        guard let status, let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return nil
        }
        return processors(cpuList: line.dropFirst("Cpus_allowed_list:".count))
    }

    /// The CPUs of a list such as `0-3,8,10-11` (the kernel's cpulist format, as `taskset -c` and
    /// cpusets write it), or nil if it is empty or unreadable.
    static func processors(cpuList text: Substring) -> Int? {
        var count = 0
        for item in text.split(separator: ",") {
            let bounds = item.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let first = Int(bounds[0]), let last = Int(bounds[bounds.count - 1]),
                  first >= 0, last >= first else { return nil }
            count += last - first + 1
        }
        return count > 0 ? count : nil
    }

    /// The tightest cgroup CPU quota on the path from this process's cgroup to the root, in
    /// processors rounded up, or nil when there is none or no cgroup file can be read. cgroup v2
    /// gives its path on the line `0::/path` of `/proc/self/cgroup` and its quota in `cpu.max`;
    /// cgroup v1 on the line whose controllers include `cpu`, and its quota in
    /// `cpu.cfs_quota_us` (−1: none) and `cpu.cfs_period_us` (cgroups(7)).
    ///
    /// - Parameters:
    ///   - membership: The text of `/proc/self/cgroup`.
    ///   - root: Where the hierarchies are mounted.
    ///   - read: Reads a file's text, nil if it cannot.
    static func cgroupQuotaProcessors(
        membership: String? = ControlGroups.readFile("/proc/self/cgroup"),
        root: String = "/sys/fs/cgroup",
        read: (String) -> String? = ControlGroups.readFile
    ) -> Int? {
        ControlGroups.tightest(
            controller: "cpu", membership: membership, root: root,
            v2: { folder in read(folder + "/cpu.max").flatMap { processors(cpuMax: $0) } },
            v1: { folder in
                guard let quota = read(folder + "/cpu.cfs_quota_us"), let period = read(folder + "/cpu.cfs_period_us") else {
                    return nil
                }
                return processors(cpuMax: quota + " " + period)
            })
    }

    /// The processors a CPU quota allows: `"$QUOTA $PERIOD"` (microseconds, cgroup v2's `cpu.max`
    /// or v1's two files joined) gives `QUOTA / PERIOD` rounded up, at least 1; `"max $PERIOD"`
    /// (v2: no limit), a negative quota (v1: no limit) and anything unreadable give nil (the
    /// kernel's cgroup-v2.rst, "cpu.max", and cgroup-v1/cgroups.rst).
    static func processors(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else {
            return nil
        }
        return max(1, quota / period + (quota % period == 0 ? 0 : 1))
    }
}
