import ActionLabTestSupport
import Foundation
import HDF5
import Testing

@Suite struct HDF5DatasetTests {
    static let shapes: [[Int]] = [[], [0], [1], [7], [2, 3], [2, 3, 4], [0, 3, 18], [3, 1, 2, 2]]

    /// Deterministic values with edge cases first (signed zero, extremes, NaN, infinity).
    static func floats(_ count: Int) -> [Float] {
        let special: [Float] = [-0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, -.infinity, 1.5]
        return (0..<count).map { $0 < special.count ? special[$0] : Float($0) * 0.37 - 11 }
    }

    static func doubles(_ count: Int) -> [Double] {
        let special: [Double] = [-0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -2.25]
        return (0..<count).map { $0 < special.count ? special[$0] : Double($0) * 1e-3 - 7 }
    }

    static func int64s(_ count: Int) -> [Int64] {
        let special: [Int64] = [.min, .max, 0, -1]
        return (0..<count).map { $0 < special.count ? special[$0] : Int64($0) * 1_000_003 }
    }

    /// Writes and reads back `values` with `shape`, optionally compressed.
    func roundTrip<T: HDF5Element>(
        _ values: [T], shape: [Int], compression: HDF5Compression?, checksummed: Bool = false
    ) throws -> HDF5Array<T> {
        let directory = try TemporaryDirectory()
        let url = directory.file("round-trip.h5")
        do {
            let file = try HDF5File.create(at: url)
            try file.root().createDataset(
                "a/b/values", values: values, shape: shape, compression: compression, checksummed: checksummed)
            try file.close()
        }
        let file = try HDF5File.open(at: url)
        let dataset = try file.root().openDataset("/a/b/values")
        #expect(try dataset.shape() == shape)
        #expect(try dataset.elementType() == T.hdf5ElementType)
        return try dataset.read(T.self)
    }

    @Test(arguments: shapes, [nil, HDF5Compression.gzip])
    func floatRoundTripIsBitExact(shape: [Int], compression: HDF5Compression?) throws {
        let values = Self.floats(shape.reduce(1, *))
        let read = try roundTrip(values, shape: shape, compression: compression)
        #expect(read.shape == shape)
        #expect(read.values.map(\.bitPattern) == values.map(\.bitPattern))
    }

    @Test(arguments: shapes, [nil, HDF5Compression.gzip])
    func checksummedRoundTripIsBitExact(shape: [Int], compression: HDF5Compression?) throws {
        let values = Self.floats(shape.reduce(1, *))
        let read = try roundTrip(values, shape: shape, compression: compression, checksummed: true)
        #expect(read.shape == shape)
        #expect(read.values.map(\.bitPattern) == values.map(\.bitPattern))
    }

    /// One changed byte in a checksummed dataset fails the read (Fletcher-32); without the
    /// checksum the same change reads back as another value, silently.
    @Test(arguments: [false, true])
    func checksumCatchesAChangedByte(checksummed: Bool) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("weights.h5")
        let values = (0..<64).map { Float($0) * 0.25 + 1000 }
        do {
            let file = try HDF5File.create(at: url)
            try file.root().createDataset("model/w", values: values, shape: [8, 8], checksummed: checksummed)
            try file.close()
        }
        var bytes = [UInt8](try Data(contentsOf: url))
        let pattern = withUnsafeBytes(of: values[37]) { [UInt8]($0) }
        let matches = (0...(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == pattern }
        try #require(matches.count == 1)
        bytes[matches[0] + 1] ^= 0x10
        try Data(bytes).write(to: url)

        let file = try HDF5File.open(at: url)
        let dataset = try file.root().openDataset("model/w")
        if checksummed {
            #expect { try dataset.read(Float.self) } throws: { error in
                guard let error = error as? HDF5Error, case .readFailed = error.kind else { return false }
                let text = "\(error)"
                return text.contains(url.path) && text.contains("model/w") && text.lowercased().contains("checksum")
            }
        } else {
            let read = try dataset.read(Float.self).values
            #expect(read[37] != values[37])
            #expect(read.enumerated().filter { $0.element != values[$0.offset] }.count == 1)
        }
    }

    @Test(arguments: shapes, [nil, HDF5Compression.gzip])
    func doubleRoundTripIsBitExact(shape: [Int], compression: HDF5Compression?) throws {
        let values = Self.doubles(shape.reduce(1, *))
        let read = try roundTrip(values, shape: shape, compression: compression)
        #expect(read.shape == shape)
        #expect(read.values.map(\.bitPattern) == values.map(\.bitPattern))
    }

    @Test(arguments: shapes, [nil, HDF5Compression(deflateLevel: 9)])
    func int64RoundTrip(shape: [Int], compression: HDF5Compression?) throws {
        let values = Self.int64s(shape.reduce(1, *))
        let read = try roundTrip(values, shape: shape, compression: compression)
        #expect(read == HDF5Array(values: values, shape: shape))
    }

    @Test func compressionShrinksLargeRepetitiveArrays() throws {
        let directory = try TemporaryDirectory()
        let shape = [2_000, 3, 18]
        let values = (0..<shape.reduce(1, *)).map { Float($0 % 18) }
        for (name, compression) in [("plain.h5", nil), ("gzip.h5", HDF5Compression.gzip)] {
            let file = try HDF5File.create(at: directory.file(name))
            try file.root().createDataset("k", values: values, shape: shape, compression: compression)
            try file.close()
        }
        let plainSize = try #require(
            try FileManager.default.attributesOfItem(atPath: directory.file("plain.h5").path)[.size] as? Int)
        let gzipSize = try #require(
            try FileManager.default.attributesOfItem(atPath: directory.file("gzip.h5").path)[.size] as? Int)
        #expect(plainSize > values.count * 4)
        #expect(gzipSize * 10 < plainSize)
        let read = try HDF5File.open(at: directory.file("gzip.h5")).root().openDataset("k").read(Float.self)
        #expect(read == HDF5Array(values: values, shape: shape))
    }

    @Test func explicitChunkShapeRoundTrips() throws {
        let values = Self.doubles(60)
        let read = try roundTrip(values, shape: [5, 12], compression: HDF5Compression(deflateLevel: 1, chunkShape: [2, 5]))
        #expect(read.values.map(\.bitPattern) == values.map(\.bitPattern))
    }

    @Test(arguments: [
        HDF5Compression(deflateLevel: 10), HDF5Compression(deflateLevel: -1),
        HDF5Compression(chunkShape: [2]), HDF5Compression(chunkShape: [3, 5]), HDF5Compression(chunkShape: [0, 1]),
    ])
    func invalidCompressionIsRejected(compression: HDF5Compression) throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let error = try #require(throws: HDF5Error.self) {
            try file.root().createDataset("d", values: [Float](repeating: 1, count: 6), shape: [2, 3], compression: compression)
        }
        guard case .invalidArgument = error.kind else {
            Issue.record("expected invalidArgument, got \(error)")
            return
        }
        #expect(try !file.root().contains("d"))
    }

    @Test func shapeThatDoesNotMatchValueCountIsRejected() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        #expect(throws: HDF5Error(kind: .invalidShape(shape: [2, 2], valueCount: 3), filePath: file.path, objectPath: "/d")) {
            try file.root().createDataset("d", values: [Float](repeating: 0, count: 3), shape: [2, 2])
        }
        #expect(throws: HDF5Error(kind: .invalidShape(shape: [-1, -3], valueCount: 3), filePath: file.path, objectPath: "/d")) {
            try file.root().createDataset("d", values: [Float](repeating: 0, count: 3), shape: [-1, -3])
        }
    }

    @Test func readingWrongTypeThrowsTypeMismatch() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let dataset = try file.root().createDataset("g/d", values: [1.0, 2.0] as [Double], shape: [2])
        let error = try #require(throws: HDF5Error.self) { try dataset.read(Float.self) }
        #expect(error.kind == .typeMismatch(expected: .float32, found: .float64))
        #expect(error.objectPath == "/g/d")
        #expect(error.description.contains("expected float32, found float64"))
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .int64, found: .float64), filePath: file.path, objectPath: "/g/d")) {
            try dataset.read(Int64.self)
        }
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .string, found: .float64), filePath: file.path, objectPath: "/g/d")) {
            try dataset.readStrings()
        }
        let strings = try file.root().createDataset("s", strings: ["a"])
        #expect(throws: HDF5Error(kind: .typeMismatch(expected: .float64, found: .string), filePath: file.path, objectPath: "/s")) {
            try strings.read(Double.self)
        }
    }

    @Test func missingDatasetPathThrowsObjectNotFound() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        try file.root().createGroup("g")
        #expect(throws: HDF5Error(kind: .objectNotFound, filePath: file.path, objectPath: "/g/missing")) {
            try file.root().openDataset("g/missing")
        }
        #expect(throws: HDF5Error(kind: .objectNotFound, filePath: file.path, objectPath: "/no/such/path")) {
            try file.root().openGroup("g").openDataset("/no/such/path")
        }
    }

    @Test func openingGroupAsDatasetIsCannotOpenObject() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        try file.root().createGroup("g")
        let error = try #require(throws: HDF5Error.self) { try file.root().openDataset("g") }
        #expect(error.kind == .cannotOpenObject)
        #expect(error.hdf5Message.contains("H5Dopen2"))
    }

    @Test func creatingExistingDatasetThrowsObjectExists() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        try file.root().createDataset("d", values: [Int64(1)], shape: [])
        #expect(throws: HDF5Error(kind: .objectExists, filePath: file.path, objectPath: "/d")) {
            try file.root().createDataset("d", values: [Int64(2)], shape: [])
        }
        #expect(try file.root().openDataset("d").read(Int64.self) == HDF5Array(values: [1], shape: []))
    }

    @Test(arguments: [[String](), ["walk"], ["walk", "run", "", "sit down", "Käse 🧀", String(repeating: "x", count: 5_000)]])
    func stringDatasetRoundTrip(strings: [String]) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("labels.h5")
        try HDF5File.create(at: url).root().createDataset("labels", strings: strings)
        let dataset = try HDF5File.open(at: url).root().openDataset("labels")
        #expect(try dataset.elementType() == .string)
        #expect(try dataset.shape() == [strings.count])
        #expect(try dataset.readStrings() == strings)
    }
}
