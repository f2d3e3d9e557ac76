import JSON5
import Testing

@Suite struct JSONPathTests {
    @Test(arguments: [
        (JSONPath.root.appending(key: "dataset").appending(key: "validation").appending(key: "fraction"), "dataset.validation.fraction"),
        (JSONPath.root.appending(key: "dataset").appending(key: "sources").appending(index: 2).appending(key: "path"), "dataset.sources[2].path"),
        (JSONPath.root.appending(key: "dataset").appending(key: "labels").appending(key: "jumping jacks"), #"dataset.labels["jumping jacks"]"#),
        (JSONPath.root.appending(index: 0).appending(key: "1st"), #"[0]["1st"]"#),
        (JSONPath.root, ""),
    ])
    func rendering(path: JSONPath, expected: String) {
        #expect(path.description == expected)
    }
}

@Suite struct SpellingSuggestionTests {
    @Test(arguments: [
        ("kitten", "sitting", 3), ("ca", "ac", 1), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
        ("valdation", "validation", 1), ("flaw", "lawn", 2),
    ])
    func editDistance(source: String, target: String, expected: Int) {
        #expect(SpellingSuggestion.editDistance(source, target) == expected)
        #expect(SpellingSuggestion.editDistance(target, source) == expected)
    }

    static let datasetKeys = ["sources", "labels", "validation", "test"]
    static let trainingKeys = ["epochs", "batchSize", "optimizer", "learningRate", "weightDecay", "momentum", "seeds"]

    @Test(arguments: [
        ("valdation", datasetKeys, "validation" as String?), ("source", datasetKeys, "sources"), ("tset", datasetKeys, "test"),
        ("batchsize", trainingKeys, "batchSize"), ("learnignRate", trainingKeys, "learningRate"), ("seed", trainingKeys, "seeds"),
        ("frobnicate", datasetKeys, nil), ("x", datasetKeys, nil), ("sources", datasetKeys, nil),
    ])
    func nearest(word: String, candidates: [String], expected: String?) {
        #expect(SpellingSuggestion.nearest(to: word, in: candidates) == expected)
    }

    @Test func explicitCutoff() {
        #expect(SpellingSuggestion.nearest(to: "tset", in: ["test"], maximumDistance: 0) == nil)
        #expect(SpellingSuggestion.nearest(to: "abcdef", in: ["ghijkl"], maximumDistance: 6) == "ghijkl")
    }
}
