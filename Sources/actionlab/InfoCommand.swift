import Foundation
import NeuralNetwork
import Reports

/// `actionlab info`: prints the versions, the machine and the OpenBLAS kernel this process runs
/// and how it was chosen, as `key: value` lines, the same facts `provenance.json` records.
enum InfoCommand: Subcommand {
    static let specification = CommandSpecification(
        name: "info",
        abstract: "print versions, the CPU and the OpenBLAS kernel in use and how it was chosen, as `key: value` lines "
            + "(the facts provenance.json records)")

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            _ = try CommandLineArguments(arguments, for: specification)
            let openblas = Provenance.OpenBLASInfo.current
            let host = Provenance.hostFacts
            let lines = [
                ("actionlab", Provenance.actionlabVersion),
                ("git commit", Provenance.gitCommit),
                ("cpu", host["cpu"] ?? "unknown"),
                ("logical cores", host["logical_cores"] ?? "unknown"),
                ("available processors", host["available_processors"] ?? "unknown"),
                ("available memory", host["available_memory_bytes"].flatMap(Double.init).map {
                    String(format: "%.1f GB (the machine's, or its cgroup's limit when lower)", $0 / 1e9)
                } ?? "unknown"),
                ("openblas", openblas.configuration),
                ("openblas kernel", openblas.coreName),
                ("kernel selection", openblas.kernelSelection),
                ("kernel check", "max relative error \(BLAS.kernelCheckError()) (tolerance \(BLAS.kernelCheckTolerance))"),
                ("openblas threads per call", "\(openblas.threads)"),
            ]
            for (key, value) in lines { print("\(key): \(value)") }
        }
    }
}
