import Foundation
@testable import NeuralNetwork
import Testing

/// ``ComputeThreads/availableProcessors()``: the affinity mask (what `taskset` and Slurm's CPU
/// binding set) and cgroup CPU quotas (v2 `cpu.max`, v1 `cpu.cfs_quota_us`) bound the machine's
/// processor count, which Foundation's `activeProcessorCount` alone does not.
@Suite struct AvailableProcessorsTests {
    /// This process's own limits are read and bound the machine's count. (`taskset -c 0
    /// actionlab info` is KernelSelectionTests.availableProcessorsFollowTheAffinityMask.)
    @Test func thisProcessHasAtLeastOneAndAtMostTheMachinesProcessors() throws {
        let mask = try #require(ComputeThreads.affinityProcessors(), "/proc/thread-self/status has no Cpus_allowed_list")
        #expect(mask >= 1)
        #expect((1...ComputeThreads.onlineProcessors).contains(ComputeThreads.availableProcessors()))
    }

    @Test func cpuLists() {
        #expect(ComputeThreads.processors(cpuList: "\t0-1") == 2)
        #expect(ComputeThreads.processors(cpuList: "0") == 1)
        #expect(ComputeThreads.processors(cpuList: "0-3,8,10-11") == 7)
        for unreadable in ["", "3-1", "a", "1-", "-1", "0-1-2"] {
            #expect(ComputeThreads.processors(cpuList: Substring(unreadable)) == nil, "'\(unreadable)'")
        }
        #expect(ComputeThreads.affinityProcessors(status: "Name:\tx\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(ComputeThreads.affinityProcessors(status: "Name:\tx\n") == nil)
    }

    @Test func quotaValues() {
        #expect(ComputeThreads.processors(cpuMax: "max 100000\n") == nil)
        #expect(ComputeThreads.processors(cpuMax: "200000 100000\n") == 2)
        #expect(ComputeThreads.processors(cpuMax: "150000 100000") == 2)
        #expect(ComputeThreads.processors(cpuMax: "50000 100000") == 1)
        #expect(ComputeThreads.processors(cpuMax: "-1 100000") == nil)  // cgroup v1: no quota
        #expect(ComputeThreads.processors(cpuMax: "9223372036854775807 100000") == 92_233_720_368_548)
        for unreadable in ["", "100000", "a b", "100000 0", "1 2 3"] {
            #expect(ComputeThreads.processors(cpuMax: unreadable) == nil, "'\(unreadable)'")
        }
    }

    /// The tightest quota on the way from the process's cgroup to the root counts, in either
    /// hierarchy; unreadable files and other controllers' lines are skipped.
    @Test func cgroupQuotasAlongThePath() {
        let files = [
            "/cg/job/cpu.max": "max 100000\n",
            "/cg/cpu.max": "300000 100000\n",
            "/cg/job/step/cpu.max": "250000 100000\n",
            "/cg/cpu,cpuacct/slurm/cpu.cfs_quota_us": "100000\n",
            "/cg/cpu,cpuacct/slurm/cpu.cfs_period_us": "100000\n",
            "/cg/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
            "/cg/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        ]
        let read: (String) -> String? = { files[$0] }
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "0::/job/step\n", root: "/cg", read: read) == 3)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "0::/job\n", root: "/cg", read: read) == 3)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "0::/\n", root: "/cg", read: read) == 3)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "0::/other\n", root: "/cg", read: read) == 3)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "0::/other\n", root: "/none", read: read) == nil)
        let hybrid = "4:memory:/slurm\n2:cpu,cpuacct:/slurm/job\n0::/\n"
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: hybrid, root: "/cg", read: read) == 1)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "1:cpu:/\n", root: "/cg", read: read) == nil)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: nil, root: "/cg", read: read) == nil)
        #expect(ComputeThreads.cgroupQuotaProcessors(membership: "garbage", root: "/cg", read: read) == nil)
    }
}
