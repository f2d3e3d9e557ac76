import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab run --threads N`: a given thread count reproduces bit for bit.
///
/// Different thread counts may differ in the last bits: OpenBLAS splits a product between
/// threads in blocks whose partial sums round differently (measured here: 1 and 2 threads give
/// different curves from the first epoch).
@Suite struct ThreadsTests {
    @Test(arguments: [1, 2])
    func sameThreadCountGivesIdenticalResults(threads: Int) throws {
        let project = try TemporaryDirectory(prefix: "actionlab-threads")
        let synth = try CommandLineTool.run(
            ["synth", "--output", "data/synthetic", "--sequences-per-class", "6", "--seed", "3", "--duration", "2"],
            in: project.url)
        #expect(synth.status == 0, "stderr: \(synth.errorOutput)")
        let manifest = try String(
            contentsOf: TestData.packageRoot.appendingPathComponent("experiments/synthetic.json5"), encoding: .utf8)
        _ = try writeFixture(manifest.replacingOccurrences(of: "epochs: 50", with: "epochs: 2"), named: "m.json5", in: project.url)

        for name in ["first", "second"] {
            let result = try CommandLineTool.run(["run", "m.json5", "--output", name, "--threads", "\(threads)"], in: project.url)
            #expect(result.status == 0, "stderr: \(result.errorOutput)")
        }
        let trials = try FileManager.default.contentsOfDirectory(atPath: project.file("first/trials").path)
        #expect(trials.count == 1)
        let trial = try #require(trials.first)
        for file in ["metrics.json", "curves.csv", "weights.h5"] {
            let first = try Data(contentsOf: project.file("first/trials/\(trial)/\(file)"))
            let second = try Data(contentsOf: project.file("second/trials/\(trial)/\(file)"))
            #expect(first == second, "\(file) differs between two runs at \(threads) threads")
        }
        let provenance = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: project.file("first/trials/\(trial)/provenance.json"))) as? [String: Any])
        let openblas = try #require(provenance["openblas"] as? [String: Any])
        #expect(provenance["compute_threads"] as? Int == threads)
        #expect(openblas["threads"] as? Int == 1, "OpenBLAS runs every call single-threaded")
        #expect((openblas["kernel_selection"] as? String)?.isEmpty == false)
        #expect((openblas["core_name"] as? String)?.isEmpty == false)
    }
}
