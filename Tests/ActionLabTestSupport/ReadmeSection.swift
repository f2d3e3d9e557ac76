import Foundation
import Testing

/// A generated part of README.md: the text between `<!-- BEGIN name ... -->` and
/// `<!-- END name -->`, which tests compare with what the code generates.
///
/// With `ACTIONLAB_UPDATE_README=1` in the environment, ``expect(_:equals:sourceLocation:)``
/// writes the generated text into README.md instead of failing, as snapshot tools update their
/// snapshots; without it (CI), a difference is a failure that shows the generated text.
public enum ReadmeSection {
    private static var readme: URL { TestData.packageRoot.appendingPathComponent("README.md") }

    /// The range of section `name`'s text in `text`.
    private static func range(_ name: String, in text: String, sourceLocation: SourceLocation) throws -> Range<String.Index> {
        let begin = try #require(text.range(of: "<!-- BEGIN \(name)"), "README.md has no BEGIN \(name) marker", sourceLocation: sourceLocation)
        let lineEnd = try #require(text[begin.upperBound...].range(of: "-->\n"), sourceLocation: sourceLocation)
        let end = try #require(
            text[lineEnd.upperBound...].range(of: "<!-- END \(name) -->"), "README.md has no END \(name) marker", sourceLocation: sourceLocation)
        return lineEnd.upperBound..<end.lowerBound
    }

    /// The text of section `name`.
    public static func text(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let text = try String(contentsOf: readme, encoding: .utf8)
        return String(text[try range(name, in: text, sourceLocation: sourceLocation)])
    }

    /// Expects section `name` to be `generated` (or writes it, with `ACTIONLAB_UPDATE_README=1`).
    public static func expect(_ name: String, equals generated: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var text = try String(contentsOf: readme, encoding: .utf8)
        let section = try range(name, in: text, sourceLocation: sourceLocation)
        guard String(text[section]) != generated else { return }
        if ProcessInfo.processInfo.environment["ACTIONLAB_UPDATE_README"] == "1" {
            text.replaceSubrange(section, with: generated)
            try text.write(to: readme, atomically: true, encoding: .utf8)
            return
        }
        Issue.record(
            "README.md's section '\(name)' differs from the generated text (rerun with ACTIONLAB_UPDATE_README=1 to write it):\n\(generated)",
            sourceLocation: sourceLocation)
    }
}
