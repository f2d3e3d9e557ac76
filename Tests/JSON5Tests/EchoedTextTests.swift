import JSON5
import Testing

/// Long values in error messages are shortened (issue 15, item 9).
@Suite struct EchoedTextTests {
    static let long = String(repeating: "x", count: 1_000_000)

    @Test func shortTextIsKept() {
        #expect(EchoedText.shortened("") == "")
        let sixty = String(repeating: "é", count: 60)
        #expect(EchoedText.shortened(sixty) == sixty)
    }

    @Test func longTextIsCutWithAnEllipsisAndItsLength() {
        #expect(EchoedText.shortened(Self.long) == String(repeating: "x", count: 60) + "… (1000000 characters)")
        #expect(EchoedText.shortened(String(repeating: "é", count: 61)) == String(repeating: "é", count: 60) + "… (61 characters)")
    }

    @Test func pathWithALongKeyIsShortened() {
        let path = JSONPath.root.appending(key: "dataset").appending(key: Self.long)
        #expect(path.description == "dataset[\"" + String(repeating: "x", count: 60) + "… (1000000 characters)\"]")
    }

    @Test func parserErrorsShortenTheValue() {
        let error = #expect(throws: JSON5Error.self) { try JSON5Value(parsing: "{ a: " + Self.long + " }") }
        #expect(error?.message == "expected a value, found '" + String(repeating: "x", count: 60) + "… (1000000 characters)' (strings need quotes)")
        let duplicate = #expect(throws: JSON5Error.self) { try JSON5Value(parsing: "{ \(Self.long): 1, \(Self.long): 2 }") }
        #expect((duplicate?.message.count ?? .max) < 150)
    }

    /// The suggestion for a word far longer than every candidate needs no edit-distance table.
    @Test func noSuggestionForAWordFarLongerThanTheCandidates() {
        #expect(SpellingSuggestion.nearest(to: Self.long, in: ["name", "dataset"]) == nil)
        #expect(SpellingSuggestion.nearest(to: "datset", in: ["name", "dataset"]) == "dataset")
    }
}
