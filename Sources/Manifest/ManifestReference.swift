import ManifestSchema

/// The manifest reference in README.md, generated from the declared settings, so that the
/// README cannot drift from what the reader accepts.
///
/// The model's keys are declared by their families and the `sweep` keys by the sweep planner;
/// the README documents those next to these tables.
package enum ManifestReference {
    /// The table of every manifest key, by dotted path from the top level, in reading order:
    /// type, default, bounds and meaning.
    ///
    /// - Returns: A Markdown table ending in a newline.
    package static func keysTable() -> String {
        ManifestReferenceRow.markdownTable(ExperimentConfiguration.referenceRows())
    }

    /// The table of the keys of one data source (an element of `dataset.sources`,
    /// `dataset.validation.sources` or `dataset.test.sources`).
    ///
    /// - Returns: A Markdown table ending in a newline.
    package static func sourceKeysTable() -> String {
        ManifestReferenceRow.markdownTable(DataSource.referenceRows())
    }
}
