import NeuralNetwork
import Testing

/// The pure parts of OpenBLAS kernel selection: CPU flags to kernel family, the start-up
/// decision, the fallback after a failed check, and the check itself on the loaded kernel.
@Suite struct BLASKernelSelectionTests {
    /// This development machine's flags (AMD EPYC, Zen 5), abridged to the relevant ones.
    static let zen5Flags: Set<String> = [
        "sse", "sse2", "pni", "ssse3", "fma", "sse4_1", "sse4_2", "avx", "avx2", "avx512f", "avx512dq",
        "avx512cd", "avx512bw", "avx512vl", "avx512_bf16", "avx512_vnni",
    ]
    static let skylakeXFlags = zen5Flags.subtracting(["avx512_bf16"])
    static let haswellFlags = skylakeXFlags.filter { !$0.hasPrefix("avx512") }

    static let cases: [(Set<String>, OpenBLASCoreType)] = [
        (zen5Flags, .cooperlake),
        (skylakeXFlags, .skylakeX),
        (skylakeXFlags.subtracting(["avx512vl"]), .haswell),  // AVX-512 F without VL: not the Skylake-X set
        (haswellFlags, .haswell),
        (haswellFlags.subtracting(["fma"]), .sandybridge),    // AVX2 without FMA3: Haswell kernels would fault
        (["sse", "sse2", "pni", "avx"], .sandybridge),
        (["sse", "sse2", "pni"], .prescott),
        (["sse", "sse2", "sse3"], .prescott),
        ([], .prescott),
    ]

    @Test(arguments: cases)
    func bestFamilyFollowsTheFlags(flags: Set<String>, expected: OpenBLASCoreType) {
        #expect(OpenBLASCoreType.best(forCPUFlags: flags) == expected)
    }

    @Test func cpuinfoFlagsAreReadFromTheFirstFlagsLine() {
        let text = """
            processor\t: 0
            model name\t: AMD EPYC
            flags\t\t: fpu sse pni avx2 avx512_bf16
            bugs\t\t: sysret_ss_attrs

            processor\t: 1
            flags\t\t: fpu
            """
        #expect(CPUFlags.parse(cpuinfo: text) == ["fpu", "sse", "pni", "avx2", "avx512_bf16"])
        #expect(CPUFlags.parse(cpuinfo: "processor : 0\nFeatures : fp asimd") == nil)
    }

    @Test func generationsOfOpenBLASNames() {
        #expect(OpenBLASCoreType.generation(ofCoreName: "Zen") == OpenBLASCoreType.haswell.generation)
        #expect(OpenBLASCoreType.generation(ofCoreName: "Nehalem") == OpenBLASCoreType.prescott.generation)
        #expect(OpenBLASCoreType.generation(ofCoreName: "COOPERLAKE") == OpenBLASCoreType.cooperlake.generation)
        #expect(OpenBLASCoreType.generation(ofCoreName: "Bogus") == nil)
        #expect(OpenBLASCoreType.cooperlake.fallback == .skylakeX)
        #expect(OpenBLASCoreType.prescott.fallback == nil)
    }

    @Test func relaunchesWhenOpenBLASDetectedAnOlderFamily() {
        let decision = BLASKernelSelection.decide(environment: [:], cpuFlags: Self.zen5Flags, loadedCoreName: "Prescott")
        #expect(decision == .relaunch(
            coreType: .cooperlake,
            description: "auto (cpuinfo: avx512_bf16) -> Cooperlake; OpenBLAS's own detection chose Prescott"))
    }

    @Test(arguments: ["Cooperlake", "SapphireRapids"])
    func keepsOpenBLASsChoiceWhenItIsAsGood(loaded: String) {
        let decision = BLASKernelSelection.decide(environment: [:], cpuFlags: Self.zen5Flags, loadedCoreName: loaded)
        guard case .keep(let description) = decision else {
            Issue.record("expected keep, got \(decision)")
            return
        }
        #expect(description.hasPrefix("OpenBLAS's own detection -> \(loaded)"))
    }

    @Test func zenIsAsGoodAsHaswell() {
        let decision = BLASKernelSelection.decide(environment: [:], cpuFlags: Self.haswellFlags, loadedCoreName: "Zen")
        #expect(decision == .keep(description: "OpenBLAS's own detection -> Zen (cpuinfo allows nothing newer than Haswell)"))
    }

    @Test func respectsTheUsersCoreTypeAndSaysWhatTheCPUAllows() {
        let decision = BLASKernelSelection.decide(
            environment: ["OPENBLAS_CORETYPE": "Haswell"], cpuFlags: Self.zen5Flags, loadedCoreName: "Haswell")
        #expect(decision == .keep(description: "OPENBLAS_CORETYPE=Haswell set by the user -> Haswell (cpuinfo allows Cooperlake)"))
    }

    /// A user's kernel name that OpenBLAS ignored is a warning; one it runs (in any case) is
    /// not, nor is the variable ActionLab itself set for a relaunched process.
    @Test func aUsersCoreTypeThatDidNotTakeEffectIsAWarning() {
        #expect(BLASKernelSelection.userCoreTypeWarning(environment: ["OPENBLAS_CORETYPE": "bogus"], loadedCoreName: "Cooperlake")
            == "warning: OPENBLAS_CORETYPE=bogus did not take effect (OpenBLAS has no such kernel, or not for this CPU); "
                + "OpenBLAS chose Cooperlake")
        #expect(BLASKernelSelection.userCoreTypeWarning(environment: ["OPENBLAS_CORETYPE": "haswell"], loadedCoreName: "Haswell") == nil)
        #expect(BLASKernelSelection.userCoreTypeWarning(environment: [:], loadedCoreName: "Haswell") == nil)
        let relaunched = ["OPENBLAS_CORETYPE": "Cooperlake", BLASKernelSelection.selectionVariable: "auto (...) -> Cooperlake"]
        #expect(BLASKernelSelection.userCoreTypeWarning(environment: relaunched, loadedCoreName: "SkylakeX") == nil)
    }

    @Test func aRelaunchedProcessKeepsItsKernel() {
        let environment = ["OPENBLAS_CORETYPE": "Cooperlake", BLASKernelSelection.selectionVariable: "auto (...) -> Cooperlake"]
        let decision = BLASKernelSelection.decide(environment: environment, cpuFlags: Self.zen5Flags, loadedCoreName: "Cooperlake")
        #expect(decision == .keep(description: "auto (...) -> Cooperlake"))
    }

    @Test func unknownFlagsKeepOpenBLASsChoice() {
        let decision = BLASKernelSelection.decide(environment: [:], cpuFlags: nil, loadedCoreName: "Haswell")
        #expect(decision == .keep(description: "OpenBLAS's own detection -> Haswell (CPU flags unknown)"))
    }

    @Test func aFailedAutomaticKernelFallsBackOneFamily() {
        let environment = ["OPENBLAS_CORETYPE": "Cooperlake", BLASKernelSelection.selectionVariable: "auto -> Cooperlake"]
        let (decision, warning) = BLASKernelSelection.decideAfterFailedCheck(
            environment: environment, loadedCoreName: "Cooperlake", error: 0.5)
        #expect(decision == .relaunch(coreType: .skylakeX, description: "auto -> Cooperlake; Cooperlake failed the sgemm check -> SkylakeX"))
        #expect(warning.contains("falling back to SkylakeX"))

        // OpenBLAS's own choice of a family ActionLab does not name falls back below its generation.
        let (zen, _) = BLASKernelSelection.decideAfterFailedCheck(environment: [:], loadedCoreName: "Zen", error: 0.5)
        guard case .relaunch(.sandybridge, _) = zen else {
            Issue.record("expected a relaunch with Sandybridge, got \(zen)")
            return
        }
    }

    @Test func aFailedUserKernelIsKeptWithAWarning() {
        let (decision, warning) = BLASKernelSelection.decideAfterFailedCheck(
            environment: ["OPENBLAS_CORETYPE": "SkylakeX"], loadedCoreName: "SkylakeX", error: 0.5)
        guard case .keep = decision else {
            Issue.record("a kernel the user forced must be kept, got \(decision)")
            return
        }
        #expect(warning.contains("keeping it because OPENBLAS_CORETYPE is set"))

        let (last, lastWarning) = BLASKernelSelection.decideAfterFailedCheck(environment: [:], loadedCoreName: "Prescott", error: 1)
        guard case .keep = last else {
            Issue.record("nothing is safer than Prescott, got \(last)")
            return
        }
        #expect(lastWarning.contains("no safer kernel"))
    }

    /// The kernel this test process loaded passes ActionLab's start-up check.
    @Test func loadedKernelPassesTheCheck() {
        let error = BLAS.kernelCheckError()
        #expect(error <= BLAS.kernelCheckTolerance, "kernel \(BLAS.coreName): relative error \(error)")
    }
}
