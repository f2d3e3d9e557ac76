import Foundation
import Pose
import Testing

/// `JSONSerialization`'s syntax errors as a line and column: from the offset Foundation gives,
/// and at the end of the text for a file cut short, where Foundation gives none.
@Suite struct JSONSyntaxErrorTests {
    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        let data = Data(text.utf8)
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            return JSONSyntaxError(error, in: data)
        }
    }

    @Test func anInvalidValueIsPlacedAtItsLineAndColumn() throws {
        let error = try #require(syntaxError("{\n  \"a\": x}"))
        #expect(error.line == 2 && error.column == 8, "\(error)")
        #expect(!error.reason.contains("character"), "\(error.reason)")
    }

    @Test func aFileCutShortIsPlacedAtItsEnd() throws {
        let error = try #require(syntaxError("[{\"file_name\": \"a.mp4\",\n  \"label\": \"squat\""))
        #expect(error.line == 2 && error.column == 19, "\(error)")
        #expect(error.reason == "the text ends early, at line 2, column 19 (a file cut short?)")
    }
}
