import ActionLabTestSupport
import Foundation
import Manifest
import Testing

/// README.md's manifest reference is generated from the declared settings: each table between
/// its `BEGIN`/`END` markers is exactly what ``ManifestReference`` makes. When this fails,
/// paste the expected table into README.md.
@Suite struct ManifestReferenceTests {
    /// The text between `<!-- BEGIN name...-->` and `<!-- END name -->` in README.md.
    static func readmeTable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- BEGIN \(name)"), "README.md has no BEGIN \(name) marker", sourceLocation: sourceLocation)
        let lineEnd = try #require(readme[begin.upperBound...].range(of: "-->\n"), sourceLocation: sourceLocation)
        let end = try #require(
            readme[lineEnd.upperBound...].range(of: "<!-- END \(name) -->"), "README.md has no END \(name) marker",
            sourceLocation: sourceLocation)
        return String(readme[lineEnd.upperBound..<end.lowerBound])
    }

    @Test func readmeKeysTableIsTheDeclaredSettings() throws {
        #expect(try Self.readmeTable("manifest-keys") == ManifestReference.keysTable())
    }

    @Test func readmeSourceKeysTableIsTheDeclaredSettings() throws {
        #expect(try Self.readmeTable("source-keys") == ManifestReference.sourceKeysTable())
    }

    @Test func keysTableStatesTypeDefaultBoundsAndMeaning() {
        let table = ManifestReference.keysTable()
        #expect(table.hasPrefix("| key | type | default | bounds | meaning |\n|---|---|---|---|---|\n"))
        #expect(table.contains("| `training.epochs` | integer | `100` | [1, 100000] | passes over the training windows |\n"))
        #expect(table.contains("| `training.schedule.gamma` | number | `0.1` | (0, 1] | `step` only: the decay factor |\n"))
        #expect(table.contains("| `output.directory` | path | `\"reports\"` |  |"))
        #expect(table.contains("| `windows.frameRate` | number | `features.frameRate` | > 0 |"))
        #expect(table.contains("| `training.earlyStopping.patience` | integer | `10` | ≥ 1 |"))
    }
}
