import ActionLabTestSupport
import Foundation
import HDF5
import Testing

@Suite struct HDF5FileTests {
    @Test func libraryVersionHasThreeNumericComponents() {
        let parts = HDF5Library.version.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { Int($0) != nil })
        #expect(HDF5Library.version.hasPrefix("1."))
    }

    @Test func openingMissingFileNamesPathAndCarriesHDF5Message() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("missing.h5")
        let error = try #require(throws: HDF5Error.self) { try HDF5File.open(at: url) }
        #expect(error.kind == .fileNotFound)
        #expect(error.filePath == url.path)
        #expect(error.hdf5Message.contains("H5Fopen"))
        #expect(error.description.contains(url.path))
    }

    @Test func openingGarbageFileIsCannotOpen() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("garbage.h5")
        try Data("this is not an HDF5 file".utf8).write(to: url)
        let error = try #require(throws: HDF5Error.self) { try HDF5File.open(at: url) }
        #expect(error.kind == .cannotOpenFile)
        #expect(!error.hdf5Message.isEmpty)
    }

    @Test func createFailIfExistsRefusesExistingFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.h5")
        try HDF5File.create(at: url).close()
        let error = try #require(throws: HDF5Error.self) { try HDF5File.create(at: url, mode: .failIfExists) }
        #expect(error.kind == .cannotCreateFile)
        #expect(!error.hdf5Message.isEmpty)
    }

    @Test func createInMissingDirectoryFails() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("no/such/dir/a.h5")
        let error = try #require(throws: HDF5Error.self) { try HDF5File.create(at: url) }
        #expect(error.kind == .cannotCreateFile)
        #expect(error.filePath == url.path)
    }

    @Test func closeIsIdempotentAndInvalidatesObjects() throws {
        let directory = try TemporaryDirectory()
        let file = try HDF5File.create(at: directory.file("a.h5"))
        let group = try file.root().createGroup("g")
        let dataset = try group.createDataset("d", values: [1.0, 2.0] as [Double], shape: [2])
        #expect(file.isOpen)
        try file.close()
        try file.close()
        #expect(!file.isOpen)
        #expect(throws: HDF5Error(kind: .fileClosed, filePath: file.path, objectPath: "/g/d")) {
            try dataset.read(Double.self)
        }
        #expect(throws: HDF5Error(kind: .fileClosed, filePath: file.path, objectPath: "/g")) {
            try group.childNames()
        }
        #expect(throws: HDF5Error(kind: .fileClosed, filePath: file.path, objectPath: "/")) { try file.root() }
    }

    @Test func truncateReplacesContentsAndReopenReadsThem() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.h5")
        do {
            let file = try HDF5File.create(at: url)
            try file.root().createDataset("old", values: [Int64(1)], shape: [1])
        }
        do {
            let file = try HDF5File.create(at: url, mode: .truncate)
            try file.root().createDataset("new", values: [Int64(2)], shape: [1])
        }
        let file = try HDF5File.open(at: url)
        #expect(file.isReadOnly)
        #expect(try file.root().childNames() == ["new"])
        #expect(try file.root().openDataset("new").read(Int64.self).values == [2])
    }

    @Test func writingToReadOnlyFileThrowsWithHDF5Message() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.h5")
        try HDF5File.create(at: url).close()
        let file = try HDF5File.open(at: url, mode: .readOnly)
        let error = try #require(throws: HDF5Error.self) { try file.root().attributes.write("x", named: "a") }
        #expect(error.kind == .cannotCreateObject)
        #expect(error.objectPath == "/@a")
        #expect(!error.hdf5Message.isEmpty)

        try file.close()
        let writable = try HDF5File.open(at: url, mode: .readWrite)
        try writable.root().attributes.write("x", named: "a")
        #expect(try writable.root().attributes.string("a") == "x")
    }
}

@Suite struct HDF5ReproducibilityTests {
    /// Object headers carry no time stamps, so the same content written twice, a second apart,
    /// gives the same bytes (a checkpoint can be compared with `cmp`).
    @Test func sameContentWrittenTwiceGivesIdenticalBytes() throws {
        let directory = try TemporaryDirectory()
        func write(_ name: String) throws -> Data {
            let url = directory.file(name)
            let file = try HDF5File.create(at: url)
            let group = try file.root().createGroup("model/blocks")
            try group.createDataset("weight", values: [Float](repeating: 0.5, count: 12), shape: [3, 4])
            try group.createDataset("compressed", values: (0..<5000).map(Double.init), shape: [5000], compression: .gzip)
            try group.attributes.write("x", named: "note")
            try file.close()
            return try Data(contentsOf: url)
        }
        let first = try write("a.h5")
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try write("b.h5") == first)
    }
}
