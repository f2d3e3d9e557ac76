import Foundation
import Manifest
import ManifestSchema
import Models
import Testing

/// The registry as a manifest sees it: a registered family is a `model.kind`, its keys are read
/// by it alone, and a key of another family is named as such.
@Suite struct ModelRegistryTests {
    static func manifest(_ model: String) -> String {
        """
        {
          name: "registry",
          dataset: { sources: [{ format: "uea", path: "/dev/null" }] },
          model: \(model),
        }
        """
    }

    static func issues(_ text: String, registry: ModelRegistry = ModelFamilyChecks.registry) -> [ManifestIssue] {
        do {
            _ = try ExperimentConfiguration.parse(text: text, fileName: "x.json5", baseDirectory: URL(fileURLWithPath: "/"), registry: registry)
            Issue.record("the manifest was accepted")
            return []
        } catch let error as ManifestError {
            return error.issues.filter { $0.path.hasPrefix("model") }
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test func registeringANameTwiceIsAnError() {
        #expect(throws: ModelRegistryError.duplicateName("tcn")) { try ModelRegistry.builtIn.registering(TemporalConvolutionalFamily()) }
    }

    @Test func aRegisteredFamilyIsAKindWithItsOwnKeys() throws {
        let configuration = try ExperimentConfiguration.parse(
            text: Self.manifest("{ kind: 'mean-pooling', bias: false, dropout: 0.1 }"), fileName: "x.json5",
            baseDirectory: URL(fileURLWithPath: "/"), registry: ModelFamilyChecks.registry)
        #expect(configuration.model.kind == "mean-pooling")
        #expect(configuration.model.settings(as: MeanPoolingTestFamily.Settings.self)?.bias == false)
        #expect(configuration.model.planDescription(layout: configuration.features.layout) == "Model: mean pooling, bias off, dropout 0.1")
    }

    @Test func theBuiltInRegistryDoesNotKnowTheTestFamily() {
        let issues = Self.issues(Self.manifest("{ kind: 'mean-pooling' }"), registry: .builtIn)
        #expect(issues.map(\.path) == ["model.kind"])
        #expect(issues.first?.message == "unknown value 'mean-pooling'; expected one of 'tcn', 'stgcn', 'stgcn-small', 'stgcnpp', 'stgcnpp-small', 'ctrgcn', 'ctrgcn-small', 'mlp'")
    }

    @Test func anotherFamilysKeyIsNamedWithTheKindsItAppliesTo() {
        let issues = Self.issues(Self.manifest("{ kind: 'tcn', bias: true, hiddenUnits: 8, colour: 1 }"))
        #expect(issues.map(\.message) == [
            "contradictory values: model.bias applies only to kind 'mean-pooling', but model.kind is 'tcn'",
            "contradictory values: model.hiddenUnits applies only to kind 'mlp', but model.kind is 'tcn'",
            "unknown key; expected one of 'kind', 'dropout', 'normalizeInput', 'stream', 'channels', 'kernelSizes'",
        ])
    }

    @Test func anUnknownKindInResolvedJSONIsADecodingError() {
        let json = Data(#"{"kind": "gcn", "dropout": 0, "normalizeInput": false}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ModelConfiguration.self, from: json) }
    }
}
