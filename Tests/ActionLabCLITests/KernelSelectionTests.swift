import ActionLabTestSupport
import Foundation
import NeuralNetwork
import Testing

/// The OpenBLAS kernel the real executable runs, as `actionlab info` reports it.
@Suite struct KernelSelectionTests {
    /// `actionlab info`'s `key: value` lines.
    static func info(environment: [String: String?], launcher: [String] = []) throws -> [String: String] {
        let directory = try TemporaryDirectory(prefix: "actionlab-info")
        let result = try CommandLineTool.run(["info"], in: directory.url, environment: environment, launcher: launcher)
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

    /// `taskset -c C actionlab info`, C the first CPU this test may use, says 1 available processor
    /// (the affinity mask that Slurm's CPU binding sets too) and still the machine's logical
    /// cores; unbound, it says at most those.
    @Test func availableProcessorsFollowTheAffinityMask() throws {
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "util-linux's taskset is missing")
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let allowed = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let firstCPU = try #require(allowed.dropFirst("Cpus_allowed_list:".count).split(whereSeparator: { !$0.isNumber }).first)
        let bound = try Self.info(environment: [:], launcher: [taskset, "-c", String(firstCPU)])
        let cores = ComputeThreads.onlineProcessors
        #expect(bound["available processors"] == "1")
        #expect(bound["logical cores"] == "\(cores)")
        let unbound = try Self.info(environment: [:])
        let available = try #require(unbound["available processors"].flatMap { Int($0) })
        #expect((1...cores).contains(available))
    }
}
