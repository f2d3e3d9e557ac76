import Foundation
import Testing

@Suite struct AugmentationManifestTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    @Test func defaultIsNoAugmentation() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal())
        #expect(configuration.augmentation.pipeline == "none")
        #expect(configuration.augmentation.steps.isEmpty)
    }

    @Test func builtInPipelineResolvesForTheLayout() throws {
        let pose = try fixture.parse(ManifestFixture.minimal("augmentation: 'full',"))
        #expect(pose.augmentation.steps.first == .horizontalFlip(probability: 0.5))
        let sensors = try fixture.parse(ManifestFixture.minimal("augmentation: 'full', features: { layout: 'accelerometer-gyroscope' },"))
        #expect(!sensors.augmentation.steps.contains { $0.kind == "flip" })
    }

    @Test func definedPipelineWithParametersAndDefaults() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("""
            augmentation: 'mine',
            augmentations: { mine: [{ kind: 'rotation', degrees: 5 }, { kind: 'scale', maximum: 1.3 }, { kind: 'frameDrop' }] },
            """))
        #expect(configuration.augmentation.steps == [
            .rotation(degrees: 5), .scale(minimum: 0.9, maximum: 1.3), .frameDrop(probability: 0.05),
        ])
    }

    @Test func problemsNameTheirPaths() {
        let issues = fixture.issues(ManifestFixture.minimal("""
            augmentation: 'mine',
            augmentations: { mine: [{ kind: 'rotaton' }, { kind: 'jitter', sigma: 1 }, { kind: 'flip', probability: 2 }] },
            """))
        let descriptions = issues.map(\.description)
        #expect(descriptions.contains { $0.hasPrefix("augmentations.mine[0].kind: unknown augmentation kind 'rotaton'; did you mean 'rotation'?") })
        #expect(descriptions.contains { $0.hasPrefix("augmentations.mine[1].sigma: unknown key") })
        #expect(descriptions.contains { $0.hasPrefix("augmentations.mine[2].probability: value out of range") })
    }

    @Test func unknownPipelineAndUnsupportedLayoutAreErrors() {
        let unknown = fixture.issues(ManifestFixture.minimal("augmentation: 'fancy',"))
        #expect(unknown.map(\.description) == ["augmentation: unknown augmentation pipeline 'fancy'; known pipelines: 'none', 'flip', 'full'"])
        let flipOnSensors = fixture.issues(ManifestFixture.minimal("augmentation: 'flip', features: { layout: 'accelerometer-gyroscope' },"))
        #expect(flipOnSensors.first?.description.contains("cannot be applied to layout 'accelerometer-gyroscope'") == true)
    }
}

@Suite struct ManifestPathResolutionTests {
    /// Trial ids hash the resolved configuration, so a path must resolve the same whether or not
    /// it exists yet (Foundation adds a trailing slash to existing folders when asked to probe).
    @Test func resolvedPathsDoNotDependOnWhetherTheFolderExists() throws {
        let fixture = try ManifestFixture()
        let text = ManifestFixture.minimal("features: { cache: 'cache-folder' }, output: { directory: 'out' },")
        let before = try fixture.parse(text).resolvedJSON()
        try FileManager.default.createDirectory(at: fixture.base.appendingPathComponent("cache-folder"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: fixture.base.appendingPathComponent("out"), withIntermediateDirectories: true)
        #expect(try fixture.parse(text).resolvedJSON() == before)
    }
}
