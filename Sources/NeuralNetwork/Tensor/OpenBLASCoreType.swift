/// An x86-64 kernel family of a `DYNAMIC_ARCH` OpenBLAS, as `OPENBLAS_CORETYPE` names it.
///
/// A `DYNAMIC_ARCH` build carries compiled kernels for many CPUs and picks one when the library
/// loads (`gotoblas_dynamic_init` in OpenBLAS's `driver/others/dynamic.c`): the one that
/// `OPENBLAS_CORETYPE` names if set, else the one its CPUID table maps the CPU model to. Debian's
/// OpenBLAS 0.3.21 does not know newer CPU models and then falls back to an older family
/// (Prescott's SSE3 kernels on new Intel server parts, Haswell's on AMD Zen 5), several times
/// slower than what the CPU can run.
///
/// The cases are the families ActionLab chooses between, ordered by instruction set; each
/// states the Linux `/proc/cpuinfo` flags its kernels need. The mapping follows the fallback
/// that later OpenBLAS releases apply to an unknown x86-64 CPU (`dynamic.c`, 0.3.22 and later):
/// AVX-512 BF16 → Cooperlake, AVX-512 (VL) → SkylakeX, AVX2 → Haswell, AVX → Sandybridge,
/// else Prescott; ActionLab asks for the full AVX-512 Skylake-X subset and for FMA (which the
/// Haswell kernels use) rather than the single bit OpenBLAS tests, to stay on the safe side.
public enum OpenBLASCoreType: String, CaseIterable, Sendable, Comparable {
    /// SSE3 kernels, the baseline every x86-64 CPU since 2005 runs.
    case prescott = "Prescott"
    /// AVX kernels (Intel Sandy Bridge, 2011).
    case sandybridge = "Sandybridge"
    /// AVX2 + FMA3 kernels (Intel Haswell, 2013; AMD's Zen kernels are their sibling).
    case haswell = "Haswell"
    /// AVX-512 F/CD/BW/DQ/VL kernels (Intel Skylake-X, 2017).
    case skylakeX = "SkylakeX"
    /// SkylakeX kernels plus AVX-512 BF16 (Intel Cooper Lake, 2020; also AMD Zen 4 and 5).
    case cooperlake = "Cooperlake"

    /// The `/proc/cpuinfo` flags this family's kernels need, its own and its predecessors'.
    ///
    /// Linux lists an AVX or AVX-512 flag only when the kernel also saves that register state
    /// (XSAVE), so the flags already include the operating-system support that OpenBLAS checks
    /// with `xgetbv`.
    public var requiredCPUFlags: [String] {
        switch self {
        case .prescott: return ["sse3"]
        case .sandybridge: return Self.prescott.requiredCPUFlags + ["avx"]
        case .haswell: return Self.sandybridge.requiredCPUFlags + ["avx2", "fma"]
        case .skylakeX: return Self.haswell.requiredCPUFlags + ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]
        case .cooperlake: return Self.skylakeX.requiredCPUFlags + ["avx512_bf16"]
        }
    }

    /// The flag that distinguishes this family from the one below it, e.g. `avx512_bf16`.
    public var distinguishingCPUFlag: String {
        switch self {
        case .prescott: return "sse3"
        case .sandybridge: return "avx"
        case .haswell: return "avx2"
        case .skylakeX: return "avx512vl"
        case .cooperlake: return "avx512_bf16"
        }
    }

    /// The best family whose required flags are all in `cpuFlags`.
    ///
    /// - Parameter cpuFlags: Flags from `/proc/cpuinfo`, see ``CPUFlags``. Linux spells SSE3 `pni`;
    ///   both spellings are accepted.
    /// - Returns: The highest family the flags allow; ``prescott`` when nothing better fits.
    public static func best(forCPUFlags cpuFlags: Set<String>) -> OpenBLASCoreType {
        var flags = cpuFlags
        if flags.contains("pni") { flags.insert("sse3") }
        return allCases.reversed().first { $0.requiredCPUFlags.allSatisfy(flags.contains) } ?? .prescott
    }

    /// The next safer family, used when this one fails ActionLab's start-up sgemm check.
    public var fallback: OpenBLASCoreType? {
        Self.allCases.last { $0 < self }
    }

    /// The instruction-set generation of any kernel name `openblas_get_corename` returns, on the
    /// scale of ``OpenBLASCoreType``'s cases (0 Prescott ... 4 Cooperlake), or nil for a name
    /// this table does not know.
    ///
    /// Names are those of `corename[]` in OpenBLAS 0.3.21's `dynamic.c`. Families without a case
    /// share the generation of their instruction set: AMD's Zen runs AVX2 + FMA like Haswell;
    /// Bulldozer to Excavator run AVX like Sandybridge; Core2, Nehalem and Barcelona run
    /// SSE3/SSE4 like Prescott.
    public static func generation(ofCoreName name: String) -> Int? {
        switch name.lowercased() {
        case "sapphirerapids": return cooperlake.generation + 1
        case "cooperlake": return cooperlake.generation
        case "skylakex": return skylakeX.generation
        case "haswell", "zen": return haswell.generation
        case "sandybridge", "bulldozer", "piledriver", "steamroller", "excavator": return sandybridge.generation
        case "prescott", "core2", "penryn", "dunnington", "nehalem", "atom", "nano",
             "barcelona", "opteron", "opteron_sse3", "bobcat", "athlon", "katmai",
             "coppermine", "northwood", "banias":
            return prescott.generation
        default: return nil
        }
    }

    /// This family's position in ``allCases`` (0 for Prescott).
    public var generation: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: OpenBLASCoreType, rhs: OpenBLASCoreType) -> Bool {
        lhs.generation < rhs.generation
    }
}
