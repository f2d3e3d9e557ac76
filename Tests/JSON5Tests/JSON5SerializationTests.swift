import JSON5
import Testing

@Suite struct JSON5SerializationTests {
    @Test func canonicalPrettyJSON() throws {
        let value = try JSON5Value(parsing: """
            { zeta: [1, 2.5, 'x'], alpha: { b: null, a: true }, empty: {}, none: [], rate: 30.0,
              nested: [{ k: 1e-7 }], "quote\\"d": 'tab\\t' }
            """)
        #expect(value.jsonString() == """
            {
              "zeta": [1, 2.5, "x"],
              "alpha": {
                "b": null,
                "a": true
              },
              "empty": {},
              "none": [],
              "rate": 30,
              "nested": [
                {
                  "k": 1e-07
                }
              ],
              "quote\\"d": "tab\\t"
            }
            """)
        #expect(value.jsonString(sortedKeys: true).hasPrefix("""
            {
              "alpha": {
                "a": true,
                "b": null
              },
              "empty": {},
            """))
    }

    @Test(arguments: [
        (30.0, "30"), (0.1, "0.1"), (0.001, "0.001"), (1e-7, "1e-07"), (2.5, "2.5"), (-4.0, "-4"),
        (123_456_789_012.0, "123456789012"), (1e300, "1e+300"), (1.0 / 3.0, "0.3333333333333333"),
        (.nan, "NaN"), (-.infinity, "-Infinity"),
    ])
    func numberFormatting(value: Double, expected: String) {
        #expect(JSON5Number(value).description == expected)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSON5Value(.string("a\u{01}\\b\n")).jsonString() == #""a\u0001\\b\n""#)
    }

    @Test(arguments: [JSON5ParserTests.specificationExample, "[1, [2, [3, {}]], 'é\\u2028']", "{ a: { b: { c: [.5, -0x10] } } }"])
    func roundTrip(text: String) throws {
        let value = try JSON5Value(parsing: text)
        for sortedKeys in [false, true] {
            let json = value.jsonString(sortedKeys: sortedKeys)
            let reparsed = try JSON5Value(parsing: json)
            if !sortedKeys { #expect(reparsed == value) }
            #expect(reparsed.jsonString(sortedKeys: sortedKeys) == json)
        }
    }

    @Test func equalityIgnoresLocations() throws {
        let compact = try JSON5Value(parsing: "{a:[1,2]}")
        let spread = try JSON5Value(parsing: "{\n\n  a: [\n 1,\n 2,\n ],\n}")
        #expect(compact == spread)
        #expect(compact != (try JSON5Value(parsing: "{a:[2,1]}")))
    }
}
