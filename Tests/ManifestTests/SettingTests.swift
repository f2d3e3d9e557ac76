import Foundation
import JSON5
import ManifestSchema
import Testing

/// A section declared outside the Manifest module, as a model family's payload will be: the
/// generic reader, manifest form and reference all come from its settings.
private struct ToyPayload: ManifestSection, Equatable {
    enum Shape: String, Codable, CaseIterable, ManifestChoice { case round, square }

    var width = 8
    var shape = Shape.round
    var rate = 0.5
    var corners: Int? = nil
    var tags: [Int] = [1]

    static var defaults: ToyPayload { ToyPayload() }

    static var settings: [Setting<ToyPayload>] {
        [
            Setting("width", \.width, .integer(.closed(1, 64)), "channels of each layer"),
            Setting("shape", \.shape, .choice(Shape.self), "the kernel's shape"),
            Setting("rate", \.rate, .number(.unitInterval), "dropout"),
            Setting("corners", \.corners, .optional(.integer(.atLeast(3))), "`square` only").encoded { $0.shape == .square },
            Setting("tags", \.tags, .list(.integer(.nonNegative), minimumCount: 1, distinct: "tag"), "labels of the layers"),
        ]
    }

    func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    init() {}
}

@Suite struct SettingTests {
    /// Reads `text` as a toy payload, returning it with the issues found.
    private func read(_ text: String) throws -> (ToyPayload?, [String]) {
        let diagnostics = ManifestDiagnostics(baseDirectory: URL(fileURLWithPath: "/"))
        let node = ManifestNode(value: try JSON5Value(parsing: text), path: JSONPath.root.appending(key: "toy"), diagnostics: diagnostics)
        let payload = node.object { ToyPayload.read($0).value }
        return (payload, diagnostics.issues.map(\.description))
    }

    @Test func statedKeysAreReadAndAbsentOnesKeepTheirDefaults() throws {
        let (payload, issues) = try read("{ width: 16, shape: 'square', corners: 4 }")
        #expect(issues.isEmpty)
        var expected = ToyPayload()
        expected.width = 16
        expected.shape = .square
        expected.corners = 4
        #expect(payload == expected)
    }

    @Test func everyProblemIsReportedWithTheNodesMessages() throws {
        let (payload, issues) = try read("{ width: 0, shape: 'sqare', rate: 1, corners: 2, tags: [2, 2], widht: 3 }")
        #expect(payload == ToyPayload())
        #expect(issues == [
            "toy.width: value out of range: expected an integer in [1, 64], found 0",
            "toy.shape: unknown value 'sqare'; expected one of 'round', 'square'; did you mean 'square'?",
            "toy.rate: value out of range: expected a number in [0, 1), found 1",
            "toy.corners: value out of range: expected an integer >= 3, found 2",
            "toy.tags[1]: contradictory values: tag 2 repeats toy.tags[0]; tags must be distinct",
            "toy.widht: unknown key; did you mean 'width'?",
        ])
    }

    @Test func manifestFormLeavesOutKeysOfAnotherModeAndUnsetOptionals() throws {
        var payload = ToyPayload()
        payload.corners = 5
        let round = try JSON5Value(parsing: String(decoding: try JSONEncoder().encode(payload), as: UTF8.self))
        #expect(round.jsonString(sortedKeys: true) == "{\n  \"rate\": 0.5,\n  \"shape\": \"round\",\n  \"tags\": [1],\n  \"width\": 8\n}")
        payload.shape = .square
        let data = try JSONEncoder().encode(payload)
        #expect(try JSON5Value(parsing: String(decoding: data, as: UTF8.self)).objectMembers?.map(\.key).sorted()
            == ["corners", "rate", "shape", "tags", "width"])
        #expect(try JSONDecoder().decode(ToyPayload.self, from: data) == payload)
        #expect(try JSONDecoder().decode(ToyPayload.self, from: Data("{\"width\": 3}".utf8)).width == 3)
    }

    @Test func referenceRowsDescribeTypeDefaultAndBounds() {
        let rows = ToyPayload.referenceRows(under: "model")
        #expect(rows.map(\.key) == ["model.width", "model.shape", "model.rate", "model.corners", "model.tags"])
        #expect(ManifestReferenceRow.markdownTable(rows) == """
            | key | type | default | bounds | meaning |
            |---|---|---|---|---|
            | `model.width` | integer | `8` | [1, 64] | channels of each layer |
            | `model.shape` | one of `round`, `square` | `"round"` |  | the kernel's shape |
            | `model.rate` | number | `0.5` | [0, 1) | dropout |
            | `model.corners` | integer | none | ≥ 3 | `square` only |
            | `model.tags` | list of integers | `[1]` | at least 1 element, distinct, each ≥ 0 | labels of the layers |

            """)
    }
}
