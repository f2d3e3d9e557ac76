import Foundation
import Manifest
import Models
import NeuralNetwork
import Testing

/// `model.kind: "stgcn" | "stgcn-small"` in manifests, with `edgeImportance` and the keys that
/// apply only to the TCN.
@Suite struct ManifestGraphModelTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    @Test(arguments: [("stgcn", SpatialTemporalGraphConvolutionalNetwork.Preset.stgcn), ("stgcn-small", .stgcnSmall)])
    func graphModelKindsDecode(name: String, preset: SpatialTemporalGraphConvolutionalNetwork.Preset) throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("model: { kind: '\(name)', dropout: 0.5 }"))
        #expect(configuration.model.kind == name)
        #expect(configuration.model.settings(as: SpatialTemporalGraphFamily.Settings.self)?.edgeImportance == true)
        #expect(configuration.model.dropout == 0.5)
        #expect(configuration.model == .stgcn(preset, dropout: 0.5))
        #expect(configuration.resolvedJSON().contains("\"kind\": \"\(name)\""))
        #expect(configuration.planDescription().contains("Model: \(name.uppercased()) over the skeleton graph of 17 edges"))
    }

    @Test func edgeImportanceCanBeTurnedOff() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("model: { kind: 'stgcn-small', edgeImportance: false }"))
        #expect(configuration.model == .stgcn(.stgcnSmall, edgeImportance: false))
    }

    @Test func edgelessLayoutIsDescribedAsIdentityGraph() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal(
            "features: { layout: 'accelerometer-gyroscope' }, model: { kind: 'stgcn' }"))
        #expect(configuration.planDescription().contains("Model: STGCN over the identity graph (layout has no edges)"))
    }

    @Test(arguments: [
        ("model: { kind: 'stgcn', channels: [8] }", "model.channels",
         "contradictory values: model.channels applies only to kind 'tcn', but model.kind is 'stgcn'"),
        ("model: { kind: 'stgcn-small', kernelSizes: [3] }", "model.kernelSizes",
         "contradictory values: model.kernelSizes applies only to kind 'tcn', but model.kind is 'stgcn-small'"),
        ("model: { edgeImportance: true }", "model.edgeImportance",
         "contradictory values: model.edgeImportance applies only to kinds 'stgcn', 'stgcn-small', but model.kind is 'tcn'"),
        ("model: { kind: 'stgcn', edgeImportance: 1 }", "model.edgeImportance", "expected a Boolean, found a number"),
    ])
    func keysThatDoNotApplyAreReported(text: String, path: String, message: String) {
        let issues = fixture.issues(ManifestFixture.minimal(text))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test func unknownKindListsTheGraphModels() {
        let issues = fixture.issues(ManifestFixture.minimal("model: { kind: 'gcn' }"))
        #expect(issues.first?.message.contains("'stgcn-small'") == true)
    }
}
