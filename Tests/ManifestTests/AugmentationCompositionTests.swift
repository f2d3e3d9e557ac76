import Augmentation
import Foundation
import JSON5
import Manifest
import Pose
import Testing

/// Pipelines defined by extending a named one: `{ extends, drop, set, append }`.
@Suite struct AugmentationCompositionTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    static let imageFull = AugmentationConfiguration.builtIn("full", for: .vision18) ?? []

    @Test func extendsDropSetAndAppendResolveInPlaceAndInOrder() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("""
            augmentation: 'gentle',
            augmentations: {
              noFlip: { extends: 'full', drop: ['flip'] },
              gentle: { extends: 'noFlip', set: [{ kind: 'rotation', degrees: 5 }], append: [{ kind: 'frameDrop', probability: 0.1 }] },
            },
            """))
        let noFlip = Array(Self.imageFull.dropFirst())
        #expect(noFlip.first == .rotation(degrees: 10) && !noFlip.contains { $0.kind == "flip" })
        var gentle = noFlip
        gentle[0] = .rotation(degrees: 5)
        gentle.append(.frameDrop(probability: 0.1))
        #expect(configuration.augmentation.steps == gentle)
        #expect(configuration.augmentation.definitions == ["noFlip": .steps(noFlip), "gentle": .steps(gentle)])
    }

    @Test func resolvedJSONHoldsTheResolvedStepsAndReadsBack() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("""
            augmentation: 'noFlip', augmentations: { noFlip: { extends: 'full', drop: ['flip'] } },
            """))
        let json = configuration.resolvedJSON()
        let document = try JSON5Value(parsing: json)
        let noFlip = try #require(document["augmentations"]?["noFlip"]?.arrayValue)
        #expect(noFlip.count == Self.imageFull.count - 1)
        #expect(noFlip.first?["kind"]?.stringValue == "rotation")
        let decoded = try JSONDecoder().decode(ExperimentConfiguration.self, from: Data(json.utf8))
        #expect(decoded == configuration)
        // The same steps written as a list make the same resolved.json (and so the same trial ids).
        let steps = try JSONEncoder().encode(Array(Self.imageFull.dropFirst()))
        let listed = try fixture.parse(ManifestFixture.minimal(
            "augmentation: 'noFlip', augmentations: { noFlip: \(String(decoding: steps, as: UTF8.self)) },"))
        #expect(listed.resolvedJSON() == json)
    }

    @Test func anExtensionInResolvedJSONIsResolvedWhenDecoded() throws {
        var json = try fixture.parse(ManifestFixture.minimal("augmentation: 'full'")).resolvedJSON()
        json = json.replacingOccurrences(
            of: "\"augmentation\": \"full\",",
            with: "\"augmentation\": \"calm\", \"augmentations\": { \"calm\": { \"extends\": \"full\", \"drop\": [\"flip\", \"rotation\"] } },")
        let decoded = try JSONDecoder().decode(ExperimentConfiguration.self, from: Data(json.utf8))
        #expect(decoded.augmentation.steps == Array(Self.imageFull.dropFirst(2)))
        let cyclic = json.replacingOccurrences(of: "\"extends\": \"full\"", with: "\"extends\": \"calm2\"")
            .replacingOccurrences(of: "\"calm\": {", with: "\"calm2\": { \"extends\": \"calm\" }, \"calm\": {")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExperimentConfiguration.self, from: Data(cyclic.utf8)) }
    }

    @Test func extendsResolvesAgainstTheLayoutsBuiltIns() throws {
        let skeleton = try fixture.parse(ManifestFixture.minimal("""
            features: { layout: 'kinect-v1' }, augmentation: 'noFlip', augmentations: { noFlip: { extends: 'full', drop: ['flip'] } },
            """))
        let skeletonFull = try #require(AugmentationConfiguration.builtIn("full", for: .kinectV1))
        #expect(skeleton.augmentation.steps == Array(skeletonFull.dropFirst()))
        #expect(skeleton.augmentation.steps.first == .rotation(degrees: 20))
        let sensors = try fixture.parse(ManifestFixture.minimal("""
            features: { layout: 'accelerometer-gyroscope' }, augmentation: 'more',
            augmentations: { more: { extends: 'full', set: [{ kind: 'jitter', standardDeviation: 0.02 }] } },
            """))
        #expect(sensors.augmentation.steps == [
            .scale(minimum: 0.9, maximum: 1.1), .jitter(standardDeviation: 0.02), .timeInterpolation(minimumSpeed: 0.8, maximumSpeed: 1.25),
        ])
    }

    @Test func aDefinitionExtendingItsOwnNameRedefinesTheBuiltIn() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("""
            augmentation: 'still',
            augmentations: { full: { extends: 'full', drop: ['flip'] }, still: { extends: 'full', drop: ['rotation'] } },
            """))
        #expect(configuration.augmentation.definitions["full"] == .steps(Array(Self.imageFull.dropFirst())))
        #expect(configuration.augmentation.steps == Array(Self.imageFull.dropFirst(2)))
    }

    @Test func aLayoutThatCannotTakeTheResolvedStepsIsAnError() {
        let issues = fixture.issues(ManifestFixture.minimal("""
            features: { layout: 'accelerometer-gyroscope' }, augmentation: 'more',
            augmentations: { more: { extends: 'none', append: [{ kind: 'rotation' }] } },
            """))
        #expect(issues.map(\.description).contains { $0.hasPrefix("augmentation: augmentation 'more': step 'rotation' cannot be applied") })
    }

    /// Each problem, at its JSON path.
    @Test(arguments: [
        ("a: { extends: 'fulll' }", "augmentations.a.extends: unknown augmentation pipeline 'fulll'; did you mean 'full'? (known pipelines: 'none', 'flip', 'full', 'a')"),
        ("a: { extends: 'full', drop: ['flp'] }", "augmentations.a.drop[0]: unknown augmentation kind 'flp'; did you mean 'flip'?"),
        ("a: { extends: 'full', drop: ['shear'] }", "augmentations.a.drop[0]: built-in pipeline 'full' for layout 'vision18' has no 'shear' step to drop (its steps: flip, rotation,"),
        ("a: { extends: 'full', drop: ['flip', 'flip'] }", "augmentations.a.drop[1]: 'flip' is dropped twice"),
        ("a: { extends: 'full', set: [{ kind: 'frameDrop' }] }", "augmentations.a.set[0].kind: built-in pipeline 'full' for layout 'vision18' has no 'frameDrop' step to set"),
        ("a: { extends: 'flip', drop: ['flip'], set: [{ kind: 'flip' }] }", "augmentations.a.set[0].kind: contradictory values: 'flip' is both dropped and set"),
        ("a: [{ kind: 'flip' }, { kind: 'flip' }], b: { extends: 'a', set: [{ kind: 'flip', probability: 1 }] }", "augmentations.b.set[0].kind: pipeline 'a' has 2 'flip' steps"),
        ("a: { extends: 'b' }, b: { extends: 'c', drop: ['flip'] }, c: { extends: 'a' }", "augmentations.c.extends: cycle of extends: 'a' → 'b' → 'c' → 'a'"),
        ("mine: { extends: 'mine' }", "augmentations.mine.extends: 'mine' extends itself, and no built-in pipeline has that name"),
        ("a: { drop: ['flip'] }", "augmentations.a.extends: missing required value"),
        ("a: { extends: 'full', remove: ['flip'] }", "augmentations.a.remove: unknown key"),
        ("a: { extends: 'full', set: [{ kind: 'rotaton' }] }", "augmentations.a.set[0].kind: unknown augmentation kind 'rotaton'; did you mean 'rotation'?"),
        ("a: 'full'", "augmentations.a: expected a list of steps or an object { extends, drop, set, append }, found a string"),
    ])
    func problemsNameTheirPath(definitions: String, expected: String) {
        let issues = fixture.issues(ManifestFixture.minimal("augmentation: 'none', augmentations: { \(definitions) },"))
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.description.hasPrefix(expected) == true, "\(issues.map(\.description))")
    }

    @Test func aPipelineWhoseDefinitionFailsIsNotAlsoUnknown() {
        let issues = fixture.issues(ManifestFixture.minimal("""
            augmentation: 'a', augmentations: { a: { extends: 'b' }, b: { extends: 'a' } },
            """))
        #expect(issues.map(\.description).count == 1)
        #expect(issues.first?.description.contains("cycle of extends: 'a' → 'b' → 'a'") == true)
    }
}
