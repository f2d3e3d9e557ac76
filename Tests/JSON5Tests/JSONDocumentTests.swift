import Foundation
import JSON5
import Testing

@Suite struct JSONDocumentTests {
    struct Windows: Decodable, Equatable {
        var size: Int
        var frameRate: Double
    }

    struct Run: Decodable, Equatable {
        var seed: Int
        var labels: [String]
        var windows: Windows
    }

    static let text = """
        {
          "seed": 7,
          "labels": ["clap", "wave"],
          "windows": {
            "size": 60,
            "frameRate": 30
          }
        }
        """

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let run = try JSONDocument.decode(Run.self, from: Data(Self.text.utf8))
        #expect(run == Run(seed: 7, labels: ["clap", "wave"], windows: Windows(size: 60, frameRate: 30)))
    }

    /// Each failure names the line and column, the JSON path and what was wrong there.
    @Test(arguments: [
        // A file cut short (a disk filled while it was written elsewhere, a copy interrupted).
        (String(text.prefix(50)), "line 4, column 3: unterminated string: expected a closing \""),
        ("garbage", "line 1, column 1: expected a value, found 'garbage' (strings need quotes)"),
        (text.replacingOccurrences(of: "\"size\": 60", with: "\"size\": \"60\""),
         "line 5, column 13: at windows.size: expected a whole number, found a string"),
        (text.replacingOccurrences(of: "\"seed\": 7,\n", with: ""), "line 1, column 1: at the top level: missing key 'seed'"),
        (text.replacingOccurrences(of: "\"frameRate\": 30", with: "\"rate\": 30"),
         "line 4, column 14: at windows: missing key 'frameRate'"),
        (text.replacingOccurrences(of: "\"wave\"", with: "null"), "line 3, column 22: at labels[1]: expected a string, found null"),
        (text.replacingOccurrences(of: "\"seed\": 7", with: "\"seed\": 7.5"), "line 1, column 1: at the top level: "),
    ])
    func failuresPointIntoTheFile(text: String, expected: String) {
        #expect { try JSONDocument.decode(Run.self, from: Data(text.utf8)) } throws: { error in
            guard let error = error as? JSON5Error else { return false }
            let matches = error.description.hasPrefix(expected)
            if !matches { Issue.record("\(error.description)") }
            return matches
        }
    }

    @Test func theFileIsNamedWhenGiven() {
        #expect { try JSONDocument.decode(Run.self, from: Data("{".utf8), filePath: "trial/config.json") } throws: { error in
            "\(error)".hasPrefix("trial/config.json:1:2: ")
        }
    }
}
