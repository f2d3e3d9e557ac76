import ActionLabTestSupport
import Foundation
import NeuralNetwork
import Testing

/// The OpenBLAS kernel the real executable runs, as `actionlab info` reports it.
@Suite struct KernelSelectionTests {
    /// `actionlab info`'s `key: value` lines.
    static func info(environment: [String: String?]) throws -> [String: String] {
        let directory = try TemporaryDirectory(prefix: "actionlab-info")
        let result = try CommandLineTool.run(["info"], in: directory.url, environment: environment)
        #expect(result.status == 0, "stderr: \(result.errorOutput)")
        var lines: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            guard let separator = line.range(of: ": ") else { continue }
            lines[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        return lines
    }

    /// Without `OPENBLAS_CORETYPE`, the executable runs a kernel at least as new as the best
    /// family the CPU flags allow, whether OpenBLAS found it itself or ActionLab relaunched.
    @Test func withoutCoreTypeTheBestFamilyForTheCPURuns() throws {
        let info = try Self.info(environment: [
            BLASKernelSelection.coreTypeVariable: nil, BLASKernelSelection.selectionVariable: nil,
        ])
        let kernel = try #require(info["openblas kernel"])
        let selection = try #require(info["kernel selection"])
        #expect(selection.contains("-> \(kernel)"), "selection '\(selection)' should name kernel \(kernel)")
        if let flags = CPUFlags.current {
            let best = OpenBLASCoreType.best(forCPUFlags: flags)
            let generation = try #require(OpenBLASCoreType.generation(ofCoreName: kernel))
            #expect(generation >= best.generation, "running \(kernel), the CPU allows \(best.rawValue)")
        }
        #expect(info["kernel check"]?.hasPrefix("max relative error") == true)
        #expect(info["openblas threads per call"] == "1")
    }

    /// A kernel the user names is respected and recorded as the user's choice.
    @Test func theUsersCoreTypeIsRespected() throws {
        let info = try Self.info(environment: [
            BLASKernelSelection.coreTypeVariable: "Prescott", BLASKernelSelection.selectionVariable: nil,
        ])
        #expect(info["openblas kernel"] == "Prescott")
        #expect(info["kernel selection"]?.hasPrefix("OPENBLAS_CORETYPE=Prescott set by the user -> Prescott") == true,
                "\(info)")
    }

    @Test(arguments: ["0", "two", "-1"])
    func badThreadCountIsAUsageError(value: String) throws {
        let directory = try TemporaryDirectory(prefix: "actionlab-threads")
        let result = try CommandLineTool.run(["run", "missing.json5", "--threads", value], in: directory.url)
        #expect(result.status == 2, "stderr: \(result.errorOutput)")
        #expect(result.errorOutput.contains("--threads"), "stderr: \(result.errorOutput)")
    }
}
