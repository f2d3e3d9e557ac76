import ActionLabTestSupport
import Foundation
import Manifest
import Models
import Sweeps
import Testing
import Training

/// Sweeps of the committed manifests on the real UEA/UCR recordings that `scripts/setup` fetches,
/// for the suites that train them and for those that only read a finished sweep.
public enum RealDataSweeps {
    /// Loads `experiments/<name>.json5` with the package root as base folder, redirecting the
    /// feature cache and the reports into `scratch` and applying `adjust` to every configuration.
    ///
    /// - Throws: `TestData`'s error naming `scripts/setup` when the recordings are absent, and the
    ///   manifest's loading errors.
    public static func runner(
        _ name: String, scratch: URL, adjust: (inout ExperimentConfiguration) -> Void = { _ in },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> SweepRunner {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")  // fails with "run scripts/setup" if absent
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/\(name).json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting { configuration in
            configuration.features.cache = scratch.appendingPathComponent("cache")
            configuration.output.directory = scratch.appendingPathComponent("reports")
            adjust(&configuration)
        }
        return SweepRunner(plan: plan, manifestURL: manifest, log: log)
    }

    /// A finished sweep and the plan it ran.
    public struct FinishedSweep: Sendable {
        public var plan: SweepPlan
        public var folder: URL
    }

    /// `experiments/utd-mhad-streams.json5` on the real UTD-MHAD skeletons, made small: the
    /// `tcn` family (channels [16, 16], kernel sizes [5, 3]) on its four streams, seeds 1 and 2,
    /// 4 epochs; about 10 s in release. For the suites that export or predict with a stream
    /// ensemble (accuracy is not their point), with `streams` in place of the grid's four when
    /// given and `adjust` applied after these changes.
    ///
    /// - Throws: `TestData`'s error naming `scripts/setup` when the skeletons are absent, and
    ///   the sweep's errors.
    public static func utdMHADStreams(
        in scratch: URL, streams: [String]? = nil, adjust: (inout ExperimentConfiguration) -> Void = { _ in }
    ) throws -> FinishedSweep {
        _ = try TestData.utdMHADSkeletonFolder()
        var manifest = TestData.packageRoot.appendingPathComponent("experiments/utd-mhad-streams.json5")
        if let streams {
            // The committed manifest with another list of streams on its grid.
            let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(
                of: #"["joint", "bone", "jointMotion", "boneMotion"]"#, with: "[" + streams.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
            manifest = scratch.appendingPathComponent("utd-mhad-streams.json5")
            try text.write(to: manifest, atomically: true, encoding: .utf8)
        }
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting {
            $0.features.cache = scratch.appendingPathComponent("cache")
            $0.output.directory = scratch.appendingPathComponent("reports")
            let stream = $0.model.stream
            $0.model = .tcn(channels: [16, 16], kernelSizes: [5, 3], normalizeInput: true)
            $0.model.stream = stream
            $0.training.seeds = [1, 2]
            $0.training.epochs = 4
            adjust(&$0)
        }
        return FinishedSweep(plan: plan, folder: try SweepRunner(plan: plan, manifestURL: manifest).run())
    }

    /// The number of epochs of ``basicMotions()``'s trials.
    public static let basicMotionsEpochs = 3

    /// `experiments/basicmotions-sweep.json5` (3 action durations × 3 augmentations), one seed,
    /// a small TCN (channels [8, 8], kernel sizes [5, 3]) for ``basicMotionsEpochs`` epochs with
    /// a step schedule halving the learning rate every epoch: nine real trials, trained once per
    /// test process and shared by the suites that read a sweep folder (charts, HTML pages,
    /// TensorBoard, MLflow). Readers must not change the folder.
    ///
    /// - Throws: the sweep's error, to every caller.
    public static func basicMotions() throws -> FinishedSweep { try sharedBasicMotions.get() }

    private static let sharedBasicMotions: Result<FinishedSweep, any Error> = Result {
        let scratch = sharedFolder.appendingPathComponent("basicmotions-sweep", isDirectory: true)
        let runner = try RealDataSweeps.runner("basicmotions-sweep", scratch: scratch) {
            $0.training.epochs = basicMotionsEpochs
            $0.training.seeds = [1]
            $0.model = .tcn(channels: [8, 8], kernelSizes: [5, 3], dropout: 0)
            $0.training.schedule = ScheduleConfiguration(kind: .step, stepEpochs: 1, gamma: 0.5)
        }
        return FinishedSweep(plan: runner.plan, folder: try runner.run(output: scratch.appendingPathComponent("sweep")))
    }

    /// This process's folder of shared sweeps, removed when the process exits.
    private static let sharedFolder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("actionlab-shared-sweeps-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        atexit { try? FileManager.default.removeItem(at: RealDataSweeps.sharedFolder) }
        return folder
    }()
}
