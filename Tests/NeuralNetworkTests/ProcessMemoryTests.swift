import Foundation
@testable import NeuralNetwork
import Testing

/// ``ProcessMemory/availableBytes()``: a cgroup memory limit (Slurm's `--mem`, a container's) on the
/// process's cgroup or an ancestor bounds the machine's memory, in cgroup v2 and v1.
@Suite struct ProcessMemoryTests {
    @Test func thisProcessMayUseAtMostTheMachinesMemory() {
        let available = ProcessMemory.availableBytes()
        #expect(available >= 1 && available <= ProcessInfo.processInfo.physicalMemory)
    }

    @Test func limitValues() {
        #expect(ProcessMemory.bytes(limit: "4294967296\n") == 4_294_967_296)
        #expect(ProcessMemory.bytes(limit: "max\n") == nil)  // cgroup v2: no limit
        #expect(ProcessMemory.bytes(limit: "9223372036854771712\n") == nil)  // cgroup v1: no limit
        for unreadable in ["", "-1", "4G", "1 2"] {
            #expect(ProcessMemory.bytes(limit: unreadable) == nil, "'\(unreadable)'")
        }
    }

    /// A Slurm job's limit sits on the job's cgroup, above the step's: the tightest on the path
    /// counts, whichever hierarchy holds it; other controllers' lines and unreadable files are skipped.
    @Test func cgroupLimitsAlongThePath() {
        let files = [
            "/cg/system.slice/memory.max": "max\n",
            "/cg/slurm/job_7/memory.max": "8589934592\n",
            "/cg/slurm/job_7/step_0/memory.max": "max\n",
            "/cg/memory/slurm/uid_0/job_9/memory.limit_in_bytes": "4294967296\n",
            "/cg/memory/slurm/uid_0/memory.limit_in_bytes": "9223372036854771712\n",
            "/cg/memory/memory.limit_in_bytes": "9223372036854771712\n",
        ]
        let read: (String) -> String? = { files[$0] }
        func limit(_ membership: String?) -> UInt64? {
            ProcessMemory.cgroupLimitBytes(membership: membership, root: "/cg", read: read)
        }
        #expect(limit("0::/slurm/job_7/step_0\n") == 8_589_934_592)
        #expect(limit("0::/system.slice\n") == nil)
        #expect(limit("4:memory:/slurm/uid_0/job_9/step_0\n2:cpu,cpuacct:/slurm\n0::/\n") == 4_294_967_296)
        #expect(limit("4:memory:/slurm/uid_0\n") == nil)
        #expect(limit("2:cpu,cpuacct:/slurm/uid_0/job_9\n") == nil)
        #expect(limit(nil) == nil)
        #expect(limit("garbage") == nil)
    }
}
