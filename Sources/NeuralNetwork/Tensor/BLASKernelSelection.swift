import Foundation

/// Chooses the OpenBLAS kernel an ActionLab process runs: pure decisions from the environment,
/// the CPU's flags and the kernel OpenBLAS loaded, carried out by the `actionlab` executable.
///
/// OpenBLAS reads `OPENBLAS_CORETYPE` once, in its library constructor, before any code of the
/// program runs, so the only reliable way to change the kernel of a process that links OpenBLAS
/// is to start the program again with the variable set. The executable does this once at
/// start-up, before any work, when ``decide(environment:cpuFlags:loadedCoreName:)`` says so:
///
/// 1. `ACTIONLAB_BLAS_KERNEL_SELECTION` set: this process is the relaunched one (or a child of
///    an ActionLab process); keep the kernel, the variable says how it was chosen.
/// 2. `OPENBLAS_CORETYPE` set by the user: respect it.
/// 3. Otherwise, if the best family the CPU flags allow (``OpenBLASCoreType/best(forCPUFlags:)``)
///    is of a newer instruction-set generation than the kernel OpenBLAS detected, relaunch with
///    `OPENBLAS_CORETYPE` naming it; else keep OpenBLAS's own choice.
///
/// The kernel then computes a small product checked against a naive one
/// (``BLAS/kernelCheckError()``); if it fails, ``decideAfterFailedCheck(environment:loadedCoreName:error:)``
/// relaunches with the next safer family and warns, down to Prescott. A kernel the user forced
/// is never replaced, only warned about. Libraries and test processes, which cannot relaunch,
/// run the kernel OpenBLAS chose; ``description(environment:loadedCoreName:)`` says so in provenance.
public enum BLASKernelSelection {
    /// OpenBLAS's variable naming the kernel family to load.
    public static let coreTypeVariable = "OPENBLAS_CORETYPE"
    /// ActionLab's variable recording how the kernel was chosen; its presence also stops a
    /// relaunched process from relaunching again.
    public static let selectionVariable = "ACTIONLAB_BLAS_KERNEL_SELECTION"

    /// What the executable should do about the kernel.
    public enum Decision: Sendable, Hashable {
        /// Keep the kernel this process runs; `description` says how it was chosen.
        case keep(description: String)
        /// Start the program again with ``coreTypeVariable`` set to `coreType` and
        /// ``selectionVariable`` set to `description`.
        case relaunch(coreType: OpenBLASCoreType, description: String)

        /// How the kernel was, or will be, chosen.
        public var description: String {
            switch self {
            case .keep(let description), .relaunch(_, let description): return description
            }
        }
    }

    /// The start-up decision.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - cpuFlags: The CPU's `/proc/cpuinfo` flags, nil where unknown.
    ///   - loadedCoreName: The kernel OpenBLAS loaded (`openblas_get_corename`).
    /// - Returns: Keep or relaunch, with the description provenance records.
    public static func decide(environment: [String: String], cpuFlags: Set<String>?, loadedCoreName: String) -> Decision {
        if let recorded = environment[selectionVariable], !recorded.isEmpty {
            return .keep(description: recorded)
        }
        if let forced = environment[coreTypeVariable], !forced.isEmpty {
            var description = "\(coreTypeVariable)=\(forced) set by the user -> \(loadedCoreName)"
            if let cpuFlags, OpenBLASCoreType.best(forCPUFlags: cpuFlags).generation
                > OpenBLASCoreType.generation(ofCoreName: loadedCoreName) ?? Int.max {
                description += " (cpuinfo allows \(OpenBLASCoreType.best(forCPUFlags: cpuFlags).rawValue))"
            }
            return .keep(description: description)
        }
        guard let cpuFlags else {
            return .keep(description: "OpenBLAS's own detection -> \(loadedCoreName) (CPU flags unknown)")
        }
        let best = OpenBLASCoreType.best(forCPUFlags: cpuFlags)
        let loaded = OpenBLASCoreType.generation(ofCoreName: loadedCoreName) ?? -1
        guard best.generation > loaded else {
            return .keep(description: "OpenBLAS's own detection -> \(loadedCoreName) (cpuinfo allows nothing newer than \(best.rawValue))")
        }
        return .relaunch(
            coreType: best,
            description: "auto (cpuinfo: \(best.distinguishingCPUFlag)) -> \(best.rawValue); OpenBLAS's own detection chose \(loadedCoreName)")
    }

    /// A warning when the user's `OPENBLAS_CORETYPE` did not take effect: OpenBLAS has no kernel
    /// of that name, or refused it for this CPU, and chose `loadedCoreName` itself (names compare
    /// without case, as OpenBLAS's own lookup does). Nil when the variable is unset, when
    /// ActionLab set it (a relaunched process), or when OpenBLAS runs the named kernel.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - loadedCoreName: The kernel OpenBLAS loaded (`openblas_get_corename`).
    public static func userCoreTypeWarning(environment: [String: String], loadedCoreName: String) -> String? {
        guard (environment[selectionVariable] ?? "").isEmpty,
              let forced = environment[coreTypeVariable], !forced.isEmpty,
              forced.lowercased() != loadedCoreName.lowercased() else { return nil }
        return "warning: \(coreTypeVariable)=\(forced) did not take effect (OpenBLAS has no such kernel, or not for this CPU); "
            + "OpenBLAS chose \(loadedCoreName)"
    }

    /// The decision when the loaded kernel failed the start-up check, and the warning to print.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - loadedCoreName: The kernel that failed.
    ///   - error: The check's largest relative error (``BLAS/kernelCheckError()``).
    /// - Returns: A relaunch with the next safer family below the failed one, or keep when the
    ///   user forced the kernel or nothing safer exists; and a warning for standard error.
    public static func decideAfterFailedCheck(
        environment: [String: String], loadedCoreName: String, error: Double
    ) -> (decision: Decision, warning: String) {
        let failure = "OpenBLAS kernel \(loadedCoreName) failed the start-up sgemm check (relative error \(error))"
        let previous = decide(environment: environment, cpuFlags: nil, loadedCoreName: loadedCoreName).description
        let selectedByActionLab = !(environment[selectionVariable] ?? "").isEmpty
        let userForced = !selectedByActionLab && !(environment[coreTypeVariable] ?? "").isEmpty
        if userForced {
            return (.keep(description: previous + "; failed the sgemm check"),
                    "warning: \(failure); keeping it because \(coreTypeVariable) is set")
        }
        let generation = OpenBLASCoreType.generation(ofCoreName: loadedCoreName) ?? OpenBLASCoreType.allCases.count
        guard let safer = OpenBLASCoreType.allCases.last(where: { $0.generation < generation }) else {
            return (.keep(description: previous + "; failed the sgemm check, no safer kernel"),
                    "warning: \(failure); no safer kernel to fall back to, results may be wrong")
        }
        return (.relaunch(coreType: safer, description: previous + "; \(loadedCoreName) failed the sgemm check -> \(safer.rawValue)"),
                "warning: \(failure); falling back to \(safer.rawValue)")
    }

    /// How the kernel of the current process was chosen, for provenance.
    ///
    /// In the `actionlab` executable this is the recorded decision. A process that made no
    /// decision (a test runner, a program using the library) runs OpenBLAS's own choice or the
    /// user's `OPENBLAS_CORETYPE`, and the text says which.
    public static func description(
        environment: [String: String] = ProcessInfo.processInfo.environment, loadedCoreName: String = BLAS.coreName
    ) -> String {
        if let recorded = environment[selectionVariable], !recorded.isEmpty { return recorded }
        if let forced = environment[coreTypeVariable], !forced.isEmpty {
            return "\(coreTypeVariable)=\(forced) set by the user -> \(loadedCoreName)"
        }
        return "OpenBLAS's own detection -> \(loadedCoreName) (no ActionLab selection in this process)"
    }
}
