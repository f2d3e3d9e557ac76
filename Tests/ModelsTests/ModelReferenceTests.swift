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
        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- BEGIN model-keys"), "README.md has no BEGIN model-keys marker")
        let lineEnd = try #require(readme[begin.upperBound...].range(of: "-->\n"))
        let end = try #require(readme[lineEnd.upperBound...].range(of: "<!-- END model-keys -->"), "README.md has no END model-keys marker")
        let table = String(readme[lineEnd.upperBound..<end.lowerBound])
        #expect(table == Self.generated, "README.md's model table differs; the generated one is:\n\(Self.generated)")
    }

    @Test func everyFamilysKeyIsListedWithTheKindsThatTakeIt() {
        let table = Self.generated
        #expect(table.contains("| `model.kind` | one of `tcn`, `stgcn`, `stgcn-small`, `mlp` | `\"tcn\"` |"))
        #expect(table.contains("| `model.edgeImportance` | Boolean | `true` |  | `stgcn`, `stgcn-small` only: "))
        #expect(table.contains("| `model.kernelSizes` | list of integers | `[7, 5, 3]` | at least 1 element, each odd, ≥ 1 | `tcn` only: "))
        #expect(table.contains("| `model.dropout` | number | `0` |"))
    }
}
