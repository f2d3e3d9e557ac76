import Foundation
import Manifest
import Models
import NeuralNetwork
import ManifestSchema
import Pose
import Testing

@Suite struct ManifestDecodingTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    @Test func fullManifestDecodesEveryField() throws {
        let configuration = try fixture.parse("""
            // Every field stated.
            {
              name: 'gunpoint-tcn_v1.2',
              description: 'GunPoint with a small TCN',
              dataset: {
                sources: [
                  { format: 'uea', path: 'data/train.ts', frameRate: 50 },
                  { format: 'csv', path: 'data/clips' },
                  { format: 'csv', path: 'data/walk.csv', label: 'walk' },
                ],
                labels: { Gun: 'draw', Point: null },
                validation: { strategy: 'files', seed: 7, sources: [{ format: 'uea', path: 'data/test.ts' }] },
                test: { sources: [{ format: 'uea', path: 'data/test.ts' }] },
              },
              features: {
                layout: { name: 'hand', joints: ['wrist', 'thumb', 'index'], channels: ['x', 'y'],
                          mirrorPairs: [[1, 2]], edges: [[0, 1], [0, 2]] },
                frameRate: 25,
                cache: '/tmp/actionlab-cache',
              },
              windows: { duration: 1.2, size: 30, frameRate: 25, stride: 10, padding: 'drop' },
              model: { kind: 'tcn', channels: [32, 64], kernelSizes: [5, 3], dropout: 0.25 },
              training: {
                epochs: 40, batchSize: 8, optimizer: 'sgd', learningRate: 0.01, weightDecay: 1e-4,
                momentum: 0.8, labelSmoothing: 0.1, seeds: [1, 2, 3], threads: 2,
              },
              evaluation: { aggregation: 'vote' },
              output: { directory: 'out/reports' },
            }
            """)
        #expect(configuration.name == "gunpoint-tcn_v1.2")
        #expect(configuration.description == "GunPoint with a small TCN")

        let dataset = configuration.dataset
        #expect(dataset.sources == [
            DataSource(format: .uea, path: URL(fileURLWithPath: fixture.path("data/train.ts")), frameRate: 50),
            DataSource(format: .csv, path: URL(fileURLWithPath: fixture.path("data/clips"), isDirectory: false), frameRate: 25),
            DataSource(format: .csv, path: URL(fileURLWithPath: fixture.path("data/walk.csv")), label: "walk", frameRate: 25),
        ].map { source in
            var source = source
            source.path = source.path.standardizedFileURL
            return source
        })
        #expect(dataset.labels == ["Gun": "draw", "Point": String?.none])
        #expect(dataset.validation.strategy == .files)
        #expect(dataset.validation.seed == 7)
        #expect(dataset.validation.sources.map(\.path.path) == [fixture.path("data/test.ts")])
        #expect(dataset.test?.sources.map(\.path.path) == [fixture.path("data/test.ts")])

        #expect(configuration.features.layout == SkeletonLayout(
            name: "hand", joints: ["wrist", "thumb", "index"], channels: ["x", "y"],
            mirrorPairs: [.init(1, 2)], edges: [.init(0, 1), .init(0, 2)]))
        #expect(configuration.features.frameRate == 25)
        #expect(configuration.features.cache.path == "/tmp/actionlab-cache")

        #expect(configuration.windows == WindowConfiguration(size: 30, frameRate: 25, stride: 10, padding: .drop))
        #expect(configuration.windowSize == 30)
        #expect(abs(configuration.actionDuration - 1.2) <= 1e-12 * 1.2)

        #expect(configuration.model == .tcn(channels: [32, 64], kernelSizes: [5, 3], dropout: 0.25))
        #expect(configuration.training == TrainingConfiguration(
            epochs: 40, batchSize: 8, optimizer: .sgd, learningRate: 0.01, weightDecay: 1e-4, momentum: 0.8,
            labelSmoothing: 0.1, seeds: [1, 2, 3], threads: 2))
        #expect(configuration.evaluation.aggregation == .vote)
        #expect(configuration.output.directory.path == fixture.path("out/reports"))
    }

    @Test func minimalManifestGetsEveryDefault() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal())
        #expect(configuration.name == "x")
        #expect(configuration.description == "")
        #expect(configuration.dataset.sources.count == 1)
        #expect(configuration.dataset.sources.first?.frameRate == 30)
        #expect(configuration.dataset.sources.first?.label == nil)
        #expect(configuration.dataset.labels.isEmpty)
        #expect(configuration.dataset.validation == ValidationConfiguration(strategy: .automatic, fraction: 0.2, seed: 0, sources: []))
        #expect(configuration.dataset.test == nil)
        #expect(configuration.features.layout == .vision18)
        #expect(configuration.features.frameRate == 30)
        #expect(configuration.features.cache.path == fixture.path("data/cache"))
        #expect(configuration.windows == WindowConfiguration(size: 60, frameRate: 30, stride: 60, padding: .zero))
        #expect(configuration.actionDuration == 2)
        #expect(configuration.model == .tcn(channels: [64, 64, 64], kernelSizes: [7, 5, 3], dropout: 0))
        #expect(configuration.training == TrainingConfiguration(
            epochs: 100, batchSize: 16, optimizer: .adam, learningRate: 0.001, weightDecay: 0, momentum: 0.9,
            labelSmoothing: 0, seeds: [0], threads: 1))
        #expect(configuration.evaluation.aggregation == .mean)
        #expect(configuration.output.directory.path == fixture.path("reports"))
    }

    @Test(arguments: [
        ("windows: { duration: 1.5 }", 45, 45),
        ("windows: { size: 20, stride: 5 }", 20, 5),
        ("windows: { duration: 2, size: 60 }", 60, 60),
        ("windows: { duration: 1, frameRate: 50 }", 50, 50),
        ("features: { frameRate: 10 }", 20, 20),
        ("features: { frameRate: 10 }, windows: { duration: 1, frameRate: 29.995 }", 30, 30),
    ])
    func windowSizeFromDurationAndFrameRate(windows: String, size: Int, stride: Int) throws {
        let configuration = try fixture.parse(ManifestFixture.minimal(windows))
        #expect(configuration.windowSize == size)
        #expect(configuration.windows.stride == stride)
    }

    @Test func featureLayoutByName() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("features: { layout: 'accelerometer-gyroscope' }"))
        #expect(configuration.features.layout == .accelerometerGyroscope)
    }

    @Test func resolvedJSONRoundTripsWithAbsolutePaths() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("training: { seeds: [1, 2] }"))
        let json = configuration.resolvedJSON()
        let decoded = try JSONDecoder().decode(ExperimentConfiguration.self, from: Data(json.utf8))
        #expect(decoded == configuration)
        #expect(json.contains("\"epochs\": 100,"))
        #expect(json.contains("\"frameRate\": 30,"))
        #expect(json.contains("\"seeds\": [1, 2]"))
        #expect(json.contains("\"path\": \"\(fixture.path("data/train.ts"))\""))
        #expect(!json.contains("file://"))
        #expect(json.hasSuffix("}\n"))
        #expect(configuration.resolvedJSON() == json)
    }

    @Test func planDescriptionStatesWhatARunDoes() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("training: { seeds: [1, 2, 3] }, windows: { stride: 30 }"))
        let plan = configuration.planDescription()
        #expect(plan.contains("Experiment 'x'"))
        #expect(plan.contains("    - uea \(fixture.path("data/train.ts")) at 30 fps"))
        #expect(plan.contains("validation: automatic, fraction 0.2 of the groups, stratified by label, split seed 0"))
        #expect(plan.contains("Windows: 60 frames = 2 s at 30 fps, stride 30 frames, shorter sequences zero-padded"))
        #expect(plan.contains("Model: TCN, channels [64, 64, 64], kernel sizes [7, 5, 3], dropout 0"))
        #expect(plan.contains("Training: 100 epochs, batch size 16, adam (learning rate 0.001, weight decay 0)"))
        #expect(plan.hasSuffix("Seeds: 1, 2, 3 (one run per seed, 3 runs of this configuration)\n"))
    }

    @Test func loadReadsAFileAndNamesItRelativeToTheBaseDirectory() throws {
        try FileManager.default.createDirectory(at: fixture.directory.file("experiments"), withIntermediateDirectories: true)
        let url = fixture.directory.file("experiments/bad.json5")
        try Data("{\n  name: 'x',\n  dataset: { sources: [] },\n}\n".utf8).write(to: url)
        let error = #expect(throws: ManifestError.self) {
            try ExperimentConfiguration.load(contentsOf: url, baseDirectory: fixture.base)
        }
        #expect(error?.description == "experiments/bad.json5:3:23: dataset.sources: value out of range: expected at least 1 element, found 0")

        try Data(ManifestFixture.minimal().utf8).write(to: url)
        #expect(try ExperimentConfiguration.load(contentsOf: url, baseDirectory: fixture.base).name == "x")
    }

    @Test func workersDefaultToTheCoresAtMostSlurmsAllotment() {
        let cores = ComputeThreads.availableProcessors()
        #expect(FeatureConfiguration.availableCores(environment: [:]) == cores)
        #expect(FeatureConfiguration.availableCores(environment: ["SLURM_CPUS_PER_TASK": "1"]) == 1)
        #expect(FeatureConfiguration.availableCores(environment: ["SLURM_CPUS_PER_TASK": "4096"]) == cores)
        for ignored in ["0", "-2", "two", ""] {
            #expect(FeatureConfiguration.availableCores(environment: ["SLURM_CPUS_PER_TASK": ignored]) == cores)
        }
        var features = FeatureConfiguration(cache: URL(fileURLWithPath: "/tmp/cache"))
        #expect(features.extractionWorkers == FeatureConfiguration.availableCores())
        features.workers = 3
        #expect(features.extractionWorkers == 3)
    }
}
