import Foundation
import JSON5
import Testing

@Suite struct JSON5ErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(text: "{ a: 1 b: 2 }", line: 1, column: 8, message: "expected ',' or '}' after object member, found 'b'"),
        Case(text: "{\n  a: 1,\n  a: 2\n}", line: 3, column: 3, message: "a: duplicate key (first defined at line 2, column 3)"),
        Case(text: "{ s: [{ a: 1 }, { a: 1, a: 2 }] }", line: 1, column: 25,
             message: "s[1].a: duplicate key (first defined at line 1, column 19)"),
        Case(text: "[1, 2", line: 1, column: 6, message: "expected ',' or ']' after array element, found end of input"),
        Case(text: "{ a 1 }", line: 1, column: 5, message: "expected ':' after key 'a', found '1'"),
        Case(text: "{ 1: 2 }", line: 1, column: 3, message: "expected a key or '}', found '1'"),
        Case(text: "{ a: 1,", line: 1, column: 8, message: "expected a key or '}', found end of input"),
        Case(text: "[1,,2]", line: 1, column: 4, message: "expected a value, found ','"),
        Case(text: "", line: 1, column: 1, message: "expected a value, found end of input"),
        Case(text: "1 2", line: 1, column: 3, message: "expected end of input after the value, found '2'"),
        Case(text: "{ a: foo }", line: 1, column: 6, message: "expected a value, found 'foo' (strings need quotes)"),
        Case(text: "  'abc", line: 1, column: 3, message: "unterminated string: expected a closing '"),
        Case(text: "\"a\nb\"", line: 1, column: 3, message: "unescaped line break in string: end the line with '\\' to continue the string, or write \\n"),
        Case(text: "/* abc", line: 1, column: 1, message: "unterminated comment: expected '*/'"),
        Case(text: "[1, / 2]", line: 1, column: 5, message: "expected '//' or '/*' to start a comment, found '/'"),
        Case(text: "[\n  007]", line: 2, column: 3, message: "expected a number without leading zeros, found '007'"),
        Case(text: "0x", line: 1, column: 3, message: "expected hexadecimal digits after '0x', found end of input"),
        Case(text: "1e+", line: 1, column: 4, message: "expected exponent digits, found end of input"),
        Case(text: "-", line: 1, column: 2, message: "expected a digit, found end of input"),
        Case(text: "Infinit", line: 1, column: 1, message: "expected 'Infinity', found 'Infinit'"),
        Case(text: #"'\1'"#, line: 1, column: 2, message: "digit escape '\\1' is not allowed"),
        Case(text: #"'\01'"#, line: 1, column: 4, message: "expected a character other than a digit after '\\0' (octal escapes are not allowed)"),
        Case(text: #"'\x4'"#, line: 1, column: 5, message: "expected 2 hexadecimal digits, found '''"),
        Case(text: #"'\uD800'"#, line: 1, column: 2, message: "unpaired UTF-16 surrogate \\ud800"),
        Case(text: "{\r\n  a: 1\r\n  b: 2\r\n}", line: 3, column: 3, message: "expected ',' or '}' after object member, found 'b'"),
        Case(text: "{ a\\u0020b: 1 }", line: 1, column: 4, message: "escape \\u0020 is not allowed in a key"),
        Case(text: "[\u{01}]", line: 1, column: 2, message: "expected a value, found control character U+0001"),
    ]

    /// Every duplicate key of a document is reported at once, in text order; a syntax error
    /// after them is reported alone, as parsing stops there.
    @Test func everyDuplicateKeyIsReported() throws {
        let text = "{\n  name: 'a',\n  training: { epochs: 1, epochs: 2 },\n  name: 'b',\n  name: 'c',\n}"
        let error = try #require(throws: JSON5Error.self) { try JSON5Value(parsing: text, filePath: "x.json5") }
        #expect([error.line] + error.others.map(\.line) == [3, 4, 5])
        #expect(error.description == """
            x.json5:3:26: training.epochs: duplicate key (first defined at line 3, column 15)
              x.json5:4:3: name: duplicate key (first defined at line 2, column 3)
              x.json5:5:3: name: duplicate key (first defined at line 2, column 3)
            """)
        let broken = try #require(throws: JSON5Error.self) { try JSON5Value(parsing: "{ a: 1, a: 2, b }", filePath: nil) }
        #expect(broken.others.isEmpty && broken.message == "expected ':' after key 'b', found '}'")
    }

    @Test(arguments: cases)
    func syntaxErrorNamesLineAndColumn(_ testCase: Case) {
        let error = #expect(throws: JSON5Error.self) { try JSON5Value(parsing: testCase.text) }
        #expect(error?.line == testCase.line)
        #expect(error?.column == testCase.column)
        #expect(error?.message == testCase.message)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 1000)
        let error = #expect(throws: JSON5Error.self) { try JSON5Value(parsing: text) }
        #expect(error?.message == "objects and arrays are nested deeper than 512 levels")
    }

    @Test func descriptionNamesFileLineAndColumn() {
        let withFile = #expect(throws: JSON5Error.self) {
            try JSON5Value(parsing: "{\n  a: 1\n  b: 2\n}", filePath: "experiments/x.json5")
        }
        #expect(withFile?.description == "experiments/x.json5:3:3: expected ',' or '}' after object member, found 'b'")
        let withoutFile = #expect(throws: JSON5Error.self) { try JSON5Value(parsing: "{\n  a: 1\n  b: 2\n}") }
        #expect(withoutFile?.description == "line 3, column 3: expected ',' or '}' after object member, found 'b'")
    }

    @Test func bytesThatAreNotUTF8AreLocatedAtTheFirstBadByte() throws {
        // "{\n  name: \"é" in Latin-1: the é (0xE9) is line 2, column 10, byte offset 11.
        let latin1 = Data("{\n  name: \"".utf8) + Data([0xE9, 0x22, 0x7D])
        #expect(throws: JSON5Error(
            filePath: "m.json5", location: SourceLocation(line: 2, column: 10),
            message: "not UTF-8 text: byte 0xE9 at offset 11 does not start a valid UTF-8 sequence; save the manifest as UTF-8")) {
            try JSON5Value(parsing: latin1, filePath: "m.json5")
        }
        // A multi-byte scalar before the bad byte counts as one column.
        #expect(throws: JSON5Error.self) { try JSON5Value(parsing: Data("\"é".utf8) + Data([0xFF]), filePath: nil) }
        do {
            _ = try JSON5Value(parsing: Data("\"é".utf8) + Data([0xFF]), filePath: nil)
        } catch let error as JSON5Error {
            #expect(error.location == SourceLocation(line: 1, column: 3) && error.message.contains("offset 3"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: JSON5Error(
            filePath: nil, location: .start,
            message: "the file is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8")) {
            try JSON5Value(parsing: Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]))
        }
        #expect(try JSON5Value(parsing: Data("{ a: 1 }".utf8)) == JSON5Value(parsing: "{ a: 1 }"))
    }
}
