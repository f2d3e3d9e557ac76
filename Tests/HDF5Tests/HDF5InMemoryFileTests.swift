import ActionLabTestSupport
import Foundation
import HDF5
import Testing

/// Files built in memory and put on disk by the caller (issue 15, item 2: HDF5 never writes to a
/// full disk itself).
@Suite struct HDF5InMemoryFileTests {
    @Test(arguments: [0, 512, 1_024])
    func imageAfterAUserBlockIsAFileEveryReaderOpens(userBlockSize: Int) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("image.h5")
        let file = try HDF5File.createInMemory(name: url.path, userBlockSize: userBlockSize)
        try file.root().createDataset("values", values: [Float(1.5), -2, 3], shape: [3])
        try file.root().attributes.write("in memory", named: "note")
        let image = try file.image()
        try file.close()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try (Data(repeating: 0x41, count: userBlockSize) + image).write(to: url)
        let reopened = try HDF5File.open(at: url)
        #expect(try reopened.root().openDataset("values").read(Float.self).values == [1.5, -2, 3])
        #expect(try reopened.root().attributes.string("note") == "in memory")
        let h5py = try PythonOracle.run(
            "import sys, h5py\nf = h5py.File(sys.argv[1], 'r'); print(f.userblock_size, [float(v) for v in f['values'][()]])", arguments: [url.path])
        #expect(h5py.output == "\(userBlockSize) [1.5, -2.0, 3.0]\n", "\(h5py.errorOutput)")
    }

    /// An image that outgrows its increment many times over (400 KB in 1 KiB steps) and one that
    /// fits in its first increment read back the same.
    @Test(arguments: [1_024, 1 << 20])
    func imageLargerThanItsIncrementIsComplete(increment: Int) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("grown.h5")
        let values = (0..<100_000).map { Float($0) * 0.25 }
        let file = try HDF5File.createInMemory(name: url.path, userBlockSize: 512, increment: increment)
        try file.root().createDataset("values", values: values, shape: [values.count])
        let image = try file.image()
        try file.close()
        try (Data(count: 512) + image).write(to: url)
        #expect(try HDF5File.open(at: url).root().openDataset("values").read(Float.self).values == values)
    }

    @Test(arguments: [0, -1])
    func incrementMustBePositive(increment: Int) {
        #expect(throws: HDF5Error.self) { try HDF5File.createInMemory(name: "bad-increment-\(increment)", increment: increment) }
    }

    @Test(arguments: [100, 513, 768])
    func userBlockMustBeAPowerOfTwoOfAtLeast512(size: Int) {
        #expect(throws: HDF5Error.self) { try HDF5File.createInMemory(name: "bad-\(size)", userBlockSize: size) }
    }
}
