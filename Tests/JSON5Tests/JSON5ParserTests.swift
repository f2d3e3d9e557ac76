import JSON5
import Testing

@Suite struct JSON5ParserTests {
    /// The example document from the JSON5 specification's introduction (spec.json5.org).
    static let specificationExample = #"""
        // This file is written in JSON5 syntax, naturally, but npm needs a regular
        // JSON file, so compile via `npm run build`. Be sure to keep both in sync!

        {
          // comments
          unquoted: 'and you can quote me on that',
          singleQuotes: 'I can use "double quotes" here',
          lineBreaks: "Look, Mom! \
        No \\n's!",
          hexadecimal: 0xdecaf,
          leadingDecimalPoint: .8675309, andTrailing: 8675309.,
          positiveSign: +1,
          trailingComma: 'in objects', andIn: ['arrays',],
          "backwardsCompatible": "with JSON",
        }
        """#

    @Test func specificationExampleParses() throws {
        let value = try JSON5Value(parsing: Self.specificationExample)
        #expect(value["unquoted"]?.stringValue == "and you can quote me on that")
        #expect(value["singleQuotes"]?.stringValue == #"I can use "double quotes" here"#)
        #expect(value["lineBreaks"]?.stringValue == #"Look, Mom! No \n's!"#)
        #expect(value["hexadecimal"]?.numberValue?.integerValue == 0xdecaf)
        #expect(value["leadingDecimalPoint"]?.numberValue?.doubleValue == 0.8675309)
        #expect(value["andTrailing"]?.numberValue?.doubleValue == 8675309)
        #expect(value["positiveSign"]?.numberValue?.integerValue == 1)
        #expect(value["trailingComma"]?.stringValue == "in objects")
        #expect(value["andIn"]?.arrayValue?.compactMap(\.stringValue) == ["arrays"])
        #expect(value["backwardsCompatible"]?.stringValue == "with JSON")
        #expect(value.objectMembers?.map(\.key) == [
            "unquoted", "singleQuotes", "lineBreaks", "hexadecimal", "leadingDecimalPoint", "andTrailing",
            "positiveSign", "trailingComma", "andIn", "backwardsCompatible",
        ])
    }

    /// Numbers from section 6 of the specification, with their double values.
    @Test(arguments: [
        ("123", 123.0), ("123.456", 123.456), (".456", 0.456), ("123.", 123), ("+123", 123), ("-123", -123),
        ("-.456", -0.456), ("123e-456", 0), ("1.5E+3", 1500), ("0xdecaf", 912_559), ("-0xC0FFEE", -12_648_430),
        ("0XfF", 255), ("+Infinity", .infinity), ("-Infinity", -.infinity), ("0", 0), ("0.5e1", 5),
    ])
    func numbers(text: String, expected: Double) throws {
        let number = try #require(try JSON5Value(parsing: text).numberValue)
        #expect(number.doubleValue == expected)
    }

    @Test(arguments: ["NaN", "-NaN", "+NaN"])
    func notANumber(text: String) throws {
        let number = try #require(try JSON5Value(parsing: text).numberValue)
        #expect(number.doubleValue.isNaN)
    }

    @Test(arguments: [("16", 16 as Int?), ("16.0", nil), ("1e2", nil), ("0x10", 16), ("-7", -7), ("99999999999999999999", nil)])
    func integerness(text: String, integer: Int?) throws {
        #expect(try JSON5Value(parsing: text).numberValue?.integerValue == integer)
    }

    /// Strings and escapes from sections 5.1 and 5.2 of the specification.
    @Test(arguments: [
        (#"'\A\C\/\D\C'"#, "AC/DC"),
        (#"'Lorem ipsum dolor sit amet, \\#nconsectetur adipiscing elit.'"#, "Lorem ipsum dolor sit amet, consectetur adipiscing elit."),
        (#"'a\r\n'"#, "a\r\n"),
        (#""\b\f\n\r\t\v\0""#, "\u{08}\u{0C}\n\r\t\u{0B}\0"),
        (#"'\x41\u0042\uD83D\uDE00'"#, "AB😀"),
        (#"'it\'s'"#, "it's"),
        ("\"a\\\r\nb\"", "ab"),
        ("'\u{2028}'", "\u{2028}"),
        (#""single ' inside double""#, "single ' inside double"),
    ])
    func strings(text: String, expected: String) throws {
        #expect(try JSON5Value(parsing: text).stringValue == expected)
    }

    /// Identifier keys from section 3 of the specification.
    @Test func identifierKeys() throws {
        let value = try JSON5Value(parsing: #"{ $_: 1, _$: 2, a\u200C: 3, ùńîċõďë: 9, \u0041\u0042\u0043: 'ABC' }"#)
        #expect(value.objectMembers?.map(\.key) == ["$_", "_$", "a\u{200C}", "ùńîċõďë", "ABC"])
    }

    @Test func literalsAndWhitespace() throws {
        let value = try JSON5Value(parsing: "\u{FEFF}[null, true, false,\u{A0}/* c */\u{2028}{},[],]")
        #expect(value == JSON5Value(.array([
            JSON5Value(.null), JSON5Value(.bool(true)), JSON5Value(.bool(false)),
            JSON5Value(.object([])), JSON5Value(.array([])),
        ])))
    }

    @Test func locationsOfNestedValues() throws {
        let text = """
            {
              dataset: {
                sources: [ { path: 'a.ts' } ],
              },
            }
            """
        let value = try JSON5Value(parsing: text)
        let dataset = try #require(value.objectMembers?.first)
        #expect(dataset.keyLocation == SourceLocation(line: 2, column: 3))
        #expect(dataset.value.location == SourceLocation(line: 2, column: 12))
        let source = try #require(dataset.value["sources"]?.arrayValue?.first)
        #expect(source.location == SourceLocation(line: 3, column: 16))
        #expect(source["path"]?.location == SourceLocation(line: 3, column: 24))
    }

    @Test(arguments: ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}"])
    func lineTerminatorsCountOneLine(terminator: String) throws {
        let text = "[1,\n" + terminator + "  2]"
        let second = try #require(try JSON5Value(parsing: text).arrayValue?.last)
        #expect(second.location == SourceLocation(line: 3, column: 3))
    }

    /// Strings are copied a run of plain characters at a time; positions after them, escapes and
    /// line separators inside them stay exact.
    @Test func longStringsKeepTheirContentAndThePositionsAfterThem() throws {
        let long = String(repeating: "y", count: 100_000)
        let value = try JSON5Value(parsing: "{ \"\(long)\": \"a\\tb\u{2028}c\\u00e9d\" }")
        #expect(value[long]?.stringValue == "a\tb\u{2028}céd")
        // After a 1,000-character string, its 2 quotes and a space, the x is at column 1,004.
        #expect(throws: JSON5Error(filePath: nil, location: SourceLocation(line: 1, column: 1004),
                                   message: "expected end of input after the value, found 'x'")) {
            try JSON5Value(parsing: "\"\(String(repeating: "z", count: 1000))\" x")
        }
        // A line separator inside a string starts a new line for what follows.
        #expect(throws: JSON5Error(filePath: nil, location: SourceLocation(line: 2, column: 5),
                                   message: "expected end of input after the value, found 'x'")) {
            try JSON5Value(parsing: "\"ab\u{2028}cd\" x")
        }
    }
}
