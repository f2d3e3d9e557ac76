import ActionLabTestSupport
import Foundation
import Manifest
import ManifestSchema
import Testing

/// A base directory holding the data files manifests refer to:
/// `data/train.ts`, `data/test.ts`, `data/walk.csv` and the labeled folder `data/clips/walk/`.
final class ManifestFixture {
    let directory: TemporaryDirectory
    var base: URL { directory.url.standardizedFileURL }

    init() throws {
        directory = try TemporaryDirectory(prefix: "manifest-tests")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: directory.file("data/clips/walk"), withIntermediateDirectories: true)
        for name in ["data/train.ts", "data/test.ts", "data/walk.csv", "data/clips/walk/a.csv"] {
            try Data("x".utf8).write(to: directory.file(name))
        }
    }

    /// The absolute path of a file under the base directory.
    func path(_ relative: String) -> String { base.appendingPathComponent(relative).standardizedFileURL.path }

    func parse(_ text: String) throws -> ExperimentConfiguration {
        try ExperimentConfiguration.parse(text: text, fileName: "experiments/x.json5", baseDirectory: base)
    }

    /// The issues of a manifest that must fail, or an empty list after recording a failure.
    func issues(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [ManifestIssue] {
        let error = #expect(throws: ManifestError.self, sourceLocation: sourceLocation) { try self.parse(text) }
        return error?.issues ?? []
    }

    /// A valid manifest whose dataset has `members` besides its one source.
    static func withDataset(_ members: String) -> String {
        "{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }], \(members) } }"
    }

    /// A valid manifest with `extra` inserted as top-level members.
    static func minimal(_ extra: String = "") -> String {
        """
        {
          name: 'x',
          dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }] },
          \(extra)
        }
        """
    }
}
