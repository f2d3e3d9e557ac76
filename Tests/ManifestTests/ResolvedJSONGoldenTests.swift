import ActionLabTestSupport
import Foundation
import Manifest
import Testing

/// `resolved.json` is hashed into trial ids, so its text must not change: the resolved JSON of
/// every committed manifest and of manifests stating every key equals a golden file recorded
/// before the manifest keys were declared as settings (`Golden/NAME.resolved.json`, with the
/// base directory written `$BASE`); `actionlab validate`'s description likewise (`Golden/NAME.plan.txt`).
@Suite struct ResolvedJSONGoldenTests {
    /// The committed manifests under `experiments/`.
    static let experiments = [
        "basicmotions", "basicmotions-sweep", "basicmotions-stgcn", "gunpoint", "gunpoint-sweep", "synthetic", "synthetic-stgcn",
    ]

    /// Manifests that state every key between them, in every mode that changes what is written.
    static let statedManifests: [String: String] = [
        "every-key-pose": """
            {
              name: 'every-key-pose',
              description: 'every key stated',
              dataset: {
                sources: [
                  { format: 'csv', path: 'data/clips', frameRate: 25 },
                  { format: 'csv', path: 'data/walk.csv', label: 'walk' },
                ],
                labels: { walk: 'walking', run: null },
                validation: { strategy: 'files', sources: [{ format: 'csv', path: 'data/walk.csv', label: 'walk' }] },
                test: { sources: [{ format: 'csv', path: 'data/clips' }] },
                onError: 'skip',
              },
              features: {
                layout: 'vision18', frameRate: 25, cache: 'cache/features',
                pose: { numPoses: 2, minPoseDetectionConfidence: 0.4, minPosePresenceConfidence: 0.6, minTrackingConfidence: 0.7, model: 'data/pose/lite.task' },
              },
              windows: { size: 40, frameRate: 20, stride: 10, padding: 'drop' },
              augmentation: 'mine',
              augmentations: {
                mine: [{ kind: 'flip', probability: 0.3 }, { kind: 'rotation', degrees: 5 }, { kind: 'timeInterpolation' }],
              },
              model: { kind: 'stgcn-small', edgeImportance: false, dropout: 0.1, normalizeInput: true },
              training: {
                epochs: 30, batchSize: 4, optimizer: 'sgd', learningRate: 0.05, weightDecay: 0.0005, momentum: 0.85,
                labelSmoothing: 0.1, seeds: [3, 1], threads: 2,
                schedule: { kind: 'step', stepEpochs: 10, gamma: 0.5, warmupEpochs: 2 },
                gradientClipNorm: 1.5, classWeights: 'balanced',
                earlyStopping: { metric: 'validation.loss', patience: 5, minimumDelta: 0.001 }, restoreBestWeights: true,
                checkpointEvery: 3,
              },
              evaluation: { aggregation: 'vote' },
              output: { directory: 'out/reports' },
            }
            """,
        "every-key-sensor": """
            {
              name: 'every-key-sensor',
              dataset: {
                sources: [{ format: 'uea', path: 'data/train.ts', frameRate: 50 }],
                labels: { a: 'b' },
                validation: { strategy: 'none' },
                onError: 'fail',
              },
              features: {
                layout: { name: 'hand', joints: ['wrist', 'thumb', 'index'], channels: ['x', 'y'], mirrorPairs: [[1, 2]], edges: [[0, 1], [0, 2]] },
                frameRate: 50,
              },
              windows: { duration: 1.5 },
              augmentation: 'full',
              model: { kind: 'mlp', hiddenUnits: 32, dropout: 0.25 },
              training: {
                optimizer: 'adamw', weightDecay: 0.01, schedule: { kind: 'cosine', minimumLearningRate: 0.0001 },
                classWeights: { a: 2, b: 0.5 },
              },
            }
            """,
        "every-key-tcn": """
            {
              name: 'every-key-tcn',
              dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }], validation: { fraction: 0.3, seed: 9 } },
              windows: { duration: 3, frameRate: 10 },
              model: { kind: 'tcn', channels: [16, 32], kernelSizes: [3, 5] },
              training: { earlyStopping: { patience: 3 }, schedule: { kind: 'constant', warmupEpochs: 1 } },
            }
            """,
    ]

    /// The names of every golden file.
    static let names = experiments + statedManifests.keys.sorted()

    /// The resolved JSON of manifest `name`, read against a fixture holding (empty) data files
    /// at every path the manifests name, with the fixture's path replaced by `$BASE`.
    static func resolvedJSON(of name: String, in fixture: ManifestFixture) throws -> String {
        try configuration(name, in: fixture).resolvedJSON().replacingOccurrences(of: fixture.base.path, with: "$BASE")
    }

    /// `actionlab validate`'s description of manifest `name`, read as ``resolvedJSON(of:in:)`` reads it.
    static func planDescription(of name: String, in fixture: ManifestFixture) throws -> String {
        try configuration(name, in: fixture).planDescription().replacingOccurrences(of: fixture.base.path, with: "$BASE")
    }

    private static func configuration(_ name: String, in fixture: ManifestFixture) throws -> ExperimentConfiguration {
        for file in [
            "data/uea/BasicMotions/BasicMotions_TRAIN.ts", "data/uea/BasicMotions/BasicMotions_TEST.ts",
            "data/uea/GunPoint/GunPoint_TRAIN.ts", "data/uea/GunPoint/GunPoint_TEST.ts", "data/synthetic/walk/a.csv",
            "data/pose/lite.task",
        ] {
            let url = fixture.directory.file(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let text = try statedManifests[name]
            ?? String(contentsOf: TestData.packageRoot.appendingPathComponent("experiments/\(name).json5"), encoding: .utf8)
        return try fixture.parse(text)
    }

    @Test(arguments: names)
    func resolvedJSONIsUnchanged(name: String) throws {
        let fixture = try ManifestFixture()
        let golden = try #require(Bundle.module.url(forResource: "\(name).resolved", withExtension: "json", subdirectory: "Golden"))
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(try Self.resolvedJSON(of: name, in: fixture) == expected)
    }

    @Test(arguments: names)
    func planDescriptionIsUnchanged(name: String) throws {
        let fixture = try ManifestFixture()
        let golden = try #require(Bundle.module.url(forResource: "\(name).plan", withExtension: "txt", subdirectory: "Golden"))
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(try Self.planDescription(of: name, in: fixture) == expected)
    }
}
