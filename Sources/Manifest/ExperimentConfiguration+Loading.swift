import Foundation
import JSON5
import Models
import ManifestSchema

extension ExperimentConfiguration {
    /// Reads, resolves and checks a manifest file.
    ///
    /// Every problem in the manifest is collected in one pass and thrown together, so a user
    /// fixes them all at once; a bad manifest fails before any work starts.
    ///
    /// - Parameters:
    ///   - url: The manifest, such as `experiments/gunpoint.json5`.
    ///   - baseDirectory: The directory relative paths are resolved against; the command-line
    ///     tool passes the current working directory. Messages name the manifest relative to it.
    /// - Returns: The configuration with every default filled in and every path absolute.
    /// - Throws: ``JSON5/JSON5Error`` (printed as `file:line:column: message`) for invalid
    ///   JSON5 syntax; ``ManifestError`` listing every problem of a syntactically valid
    ///   manifest; the file system's error if the file cannot be read.
    public static func load(contentsOf url: URL, baseDirectory: URL) throws -> ExperimentConfiguration {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try parse(text: text, fileName: displayPath(of: url, relativeTo: baseDirectory), baseDirectory: baseDirectory)
    }

    /// Reads, resolves and checks manifest text.
    ///
    /// - Parameters:
    ///   - text: The manifest's JSON5 text.
    ///   - fileName: The name messages give the manifest, such as `experiments/x.json5`.
    ///   - baseDirectory: The directory relative paths are resolved against.
    ///   - registry: The model families `model.kind` may name (default: ActionLab's own).
    /// - Returns: The configuration with every default filled in and every path absolute.
    /// - Throws: ``JSON5/JSON5Error`` for invalid syntax, or ``ManifestError`` listing every
    ///   problem.
    public static func parse(
        text: String, fileName: String, baseDirectory: URL, registry: ModelRegistry = .builtIn
    ) throws -> ExperimentConfiguration {
        let document = try JSON5Value(parsing: text, filePath: fileName)
        let (configuration, issues) = decode(document, baseDirectory: baseDirectory, registry: registry)
        guard let configuration, issues.isEmpty else { throw ManifestError(filePath: fileName, issues: issues) }
        return configuration
    }

    /// Decodes a parsed manifest, returning the configuration (nil if the root is not an
    /// object) and every problem found. A `sweep` member is left to ``SweepPlan``.
    package static func decode(
        _ document: JSON5Value, baseDirectory: URL, registry: ModelRegistry = .builtIn
    ) -> (ExperimentConfiguration?, [ManifestIssue]) {
        let diagnostics = ManifestDiagnostics(baseDirectory: baseDirectory.standardizedFileURL)
        let root = ManifestNode(value: document, path: .root, diagnostics: diagnostics)
        let configuration = root.object { ExperimentConfiguration(reading: $0, registry: registry) }
        return (configuration, diagnostics.issues)
    }

    /// The manifest's path relative to `baseDirectory` when inside it, else absolute: the name
    /// messages give it.
    package static func displayName(of url: URL, relativeTo baseDirectory: URL) -> String {
        displayPath(of: url, relativeTo: baseDirectory)
    }

    /// The file's path relative to `directory` when it is inside it, otherwise its absolute path.
    private static func displayPath(of url: URL, relativeTo directory: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = directory.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
