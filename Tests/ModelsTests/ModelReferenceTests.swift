import ActionLabTestSupport
import Foundation
import ManifestSchema
import Models
import Testing

/// README.md's table of the `model` keys is generated from the registry: `model.kind` with
/// every family, the shared keys and each family's declared settings.
@Suite struct ModelReferenceTests {
    static var generated: String { ManifestReferenceRow.markdownTable(ModelRegistry.builtIn.referenceRows()) }

    @Test func readmeModelTableIsTheRegisteredFamilies() throws {
        try ReadmeSection.expect("model-keys", equals: Self.generated)
    }

    @Test func everyFamilysKeyIsListedWithTheKindsThatTakeIt() {
        let table = Self.generated
        #expect(table.contains("| `model.kind` | one of `tcn`, `stgcn`, `stgcn-small`, `stgcnpp`, `stgcnpp-small`, `ctrgcn`, `ctrgcn-small`, `mlp` | `\"tcn\"` |"))
        #expect(table.contains("| `model.edgeImportance` | Boolean | `true` |  | `stgcn`, `stgcn-small` only: "))
        #expect(table.contains("| `model.kernelSizes` | list of integers | `[7, 5, 3]` | at least 1 element, each odd, ≥ 1 | `tcn` only: "))
        #expect(table.contains("| `model.dropout` | number | `0` |"))
    }
}
