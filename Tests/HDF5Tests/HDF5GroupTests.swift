import ActionLabTestSupport
import Foundation
import HDF5
import Testing

@Suite struct HDF5GroupTests {
    @Test func nestedGroupsAreCreatedWithIntermediatesAndListedSorted() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("groups.h5")
        do {
            let file = try HDF5File.create(at: url)
            let root = try file.root()
            let deep = try root.createGroup("a/b/c")
            #expect(deep.path == "/a/b/c")
            try root.createGroup("a/zeta")
            try root.createGroup("/a/alpha")
            try root.openGroup("a").createDataset("data", values: [Float(1)], shape: [1])
            try file.close()
        }
        let root = try HDF5File.open(at: url).root()
        #expect(try root.childNames() == ["a"])
        #expect(try root.openGroup("a").childNames() == ["alpha", "b", "data", "zeta"])
        #expect(try root.openGroup("/a/b").childNames() == ["c"])
        #expect(try root.openGroup("a/b/c").childNames() == [])
    }

    @Test func containsFollowsPathsSafely() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let root = try file.root()
        let group = try root.createGroup("x/y")
        try group.createDataset("d", values: [Int64(3)], shape: [1])
        #expect(try root.contains("x"))
        #expect(try root.contains("x/y"))
        #expect(try root.contains("/x/y/d"))
        #expect(try group.contains("d"))
        #expect(try group.contains("/x"))
        #expect(try group.contains(""))
        #expect(try !root.contains("y"))
        #expect(try !root.contains("x/missing/deeper"))
        #expect(try !root.contains("x/y/d/inside-a-dataset"))
        #expect(try !group.contains("x"))
    }

    @Test func openingMissingGroupNamesThePath() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let group = try file.root().createGroup("x")
        #expect(throws: HDF5Error(kind: .objectNotFound, filePath: file.path, objectPath: "/x/nope")) {
            try group.openGroup("nope")
        }
        #expect(throws: HDF5Error(kind: .objectExists, filePath: file.path, objectPath: "/x")) {
            try file.root().createGroup("x")
        }
    }

    @Test func openingDatasetAsGroupIsCannotOpenObject() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        try file.root().createDataset("d", values: [1.0], shape: [1])
        let error = try #require(throws: HDF5Error.self) { try file.root().openGroup("d") }
        #expect(error.kind == .cannotOpenObject)
        #expect(!error.hdf5Message.isEmpty)
    }
}

@Suite struct HDF5AttributeTests {
    @Test func everyAttributeTypeRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("attributes.h5")
        do {
            let file = try HDF5File.create(at: url)
            let root = try file.root()
            let dataset = try root.createDataset("g/d", values: [Float(0)], shape: [1])
            for attributes in [root.attributes, try root.openGroup("g").attributes, dataset.attributes] {
                try attributes.write("actionlab-feature-cache ✓", named: "text")
                try attributes.write(["a", "", "ß"], named: "texts")
                try attributes.write([String](), named: "no-texts")
                try attributes.write(29.97, named: "rate")
                try attributes.write([0.5, -.infinity, .leastNonzeroMagnitude], named: "rates")
                try attributes.write(Int64.min, named: "count")
                try attributes.write([Int64.max, 0, -5], named: "counts")
                try attributes.write([Int64](), named: "no-counts")
            }
            try file.close()
        }
        let root = try HDF5File.open(at: url).root()
        for attributes in [root.attributes, try root.openGroup("g").attributes, try root.openDataset("g/d").attributes] {
            #expect(try attributes.names() == ["count", "counts", "no-counts", "no-texts", "rate", "rates", "text", "texts"])
            #expect(try attributes.string("text") == "actionlab-feature-cache ✓")
            #expect(try attributes.strings("texts") == ["a", "", "ß"])
            #expect(try attributes.strings("no-texts") == [])
            #expect(try attributes.double("rate") == 29.97)
            #expect(try attributes.doubles("rates") == [0.5, -.infinity, .leastNonzeroMagnitude])
            #expect(try attributes.int64("count") == .min)
            #expect(try attributes.int64s("counts") == [.max, 0, -5])
            #expect(try attributes.int64s("no-counts") == [])
            #expect(try attributes.contains("rate"))
            #expect(try !attributes.contains("missing"))
        }
    }

    @Test func writingReplacesExistingAttributeOfAnotherType() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let attributes = try file.root().attributes
        try attributes.write(Int64(1), named: "v")
        try attributes.write("one", named: "v")
        #expect(try attributes.string("v") == "one")
        #expect(try attributes.names() == ["v"])
    }

    @Test func attributeErrorsNameTheAttribute() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let group = try file.root().createGroup("g")
        try group.attributes.write(Int64(7), named: "n")
        try group.attributes.write([1.0, 2.0], named: "pair")
        #expect(throws: HDF5Error(kind: .objectNotFound, filePath: file.path, objectPath: "/g@missing")) {
            try group.attributes.string("missing")
        }
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .float64, found: .int64), filePath: file.path, objectPath: "/g@n")) {
            try group.attributes.double("n")
        }
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .string, found: .int64), filePath: file.path, objectPath: "/g@n")) {
            try group.attributes.string("n")
        }
        let error = try #require(throws: HDF5Error.self) { try group.attributes.double("pair") }
        #expect(error.kind == .invalidShape(shape: [2], valueCount: 2))
    }
}
