import ActionLabTestSupport
import Foundation
import Manifest
import Testing

/// README.md's manifest reference is generated from the declared settings: each table between
/// its `BEGIN`/`END` markers is exactly what ``ManifestReference`` makes. When this fails,
/// rerun with `ACTIONLAB_UPDATE_README=1` (``ReadmeSection``) and review the diff.
@Suite struct ManifestReferenceTests {
    @Test func readmeKeysTableIsTheDeclaredSettings() throws {
        try ReadmeSection.expect("manifest-keys", equals: ManifestReference.keysTable())
    }

    @Test func readmeSourceKeysTableIsTheDeclaredSettings() throws {
        try ReadmeSection.expect("source-keys", equals: ManifestReference.sourceKeysTable())
    }

    @Test func keysTableStatesTypeDefaultBoundsAndMeaning() {
        let table = ManifestReference.keysTable()
        #expect(table.hasPrefix("| key | type | default | bounds | meaning |\n|---|---|---|---|---|\n"))
        #expect(table.contains("| `training.epochs` | integer | `100` | [1, 100000] | passes over the training windows |\n"))
        #expect(table.contains("| `training.schedule.gamma` | number | `0.1` | (0, 1] | `step` only: the decay factor |\n"))
        #expect(table.contains("| `output.directory` | path | `\"reports\"` |  |"))
        #expect(table.contains("| `windows.frameRate` | number | `features.frameRate` | (0, 1000000] |"))
        #expect(table.contains("| `training.earlyStopping.patience` | integer | `10` | ≥ 1 |"))
    }
}
