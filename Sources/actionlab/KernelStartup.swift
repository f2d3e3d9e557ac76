import Foundation
import NeuralNetwork

/// Puts the process on the best correct OpenBLAS kernel before any command runs.
///
/// OpenBLAS picks its kernel in its library constructor, before `main`, from
/// `OPENBLAS_CORETYPE` or its own CPU table; so a better kernel needs a new process image.
/// ``run()`` follows ``BLASKernelSelection``: when the CPU's flags allow a newer kernel family
/// than OpenBLAS detected, it replaces the process with itself (`execv` of `/proc/self/exe`,
/// same arguments, same process id) with `OPENBLAS_CORETYPE` set. The (new) process then checks
/// the kernel with a small product against a naive one and falls back to a safer family if it
/// is wrong. The outcome is left in `ACTIONLAB_BLAS_KERNEL_SELECTION`, which provenance records
/// and which keeps child processes from choosing again.
enum KernelStartup {
    /// Chooses, relaunches if needed, checks. Returns only when the process keeps its kernel.
    static func run() {
        if let warning = BLASKernelSelection.userCoreTypeWarning(
            environment: ProcessInfo.processInfo.environment, loadedCoreName: BLAS.coreName) {
            Console.error(warning)
        }
        let decision = BLASKernelSelection.decide(
            environment: ProcessInfo.processInfo.environment, cpuFlags: CPUFlags.current,
            loadedCoreName: BLAS.coreName)
        apply(decision)

        let error = BLAS.kernelCheckError()
        guard error <= BLAS.kernelCheckTolerance else {
            let (fallback, warning) = BLASKernelSelection.decideAfterFailedCheck(
                environment: ProcessInfo.processInfo.environment, loadedCoreName: BLAS.coreName, error: error)
            Console.error(warning)
            apply(fallback)
            return
        }
    }

    /// Relaunches for `.relaunch` (returning only if that fails); records `.keep`.
    private static func apply(_ decision: BLASKernelSelection.Decision) {
        switch decision {
        case .keep(let description):
            setenv(BLASKernelSelection.selectionVariable, description, 1)
        case .relaunch(let coreType, let description):
            let previous = ProcessInfo.processInfo.environment[BLASKernelSelection.coreTypeVariable]
            setenv(BLASKernelSelection.coreTypeVariable, coreType.rawValue, 1)
            setenv(BLASKernelSelection.selectionVariable, description, 1)
            let reason = relaunch()
            // Still here: the new image could not start. Carry on with the loaded kernel.
            if let previous { setenv(BLASKernelSelection.coreTypeVariable, previous, 1) } else {
                unsetenv(BLASKernelSelection.coreTypeVariable)
            }
            let kept = "OpenBLAS's own detection -> \(BLAS.coreName) (relaunching with \(coreType.rawValue) failed: \(reason))"
            Console.error("warning: cannot relaunch with OpenBLAS kernel \(coreType.rawValue): \(reason); running \(BLAS.coreName)")
            setenv(BLASKernelSelection.selectionVariable, kept, 1)
        }
    }

    /// Replaces the process image with this executable and the same arguments; returns the
    /// system's reason only if `execv` fails.
    private static func relaunch() -> String {
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        execv("/proc/self/exe", arguments)
        return String(cString: strerror(errno))
    }
}
