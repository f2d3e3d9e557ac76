import ActionLabTestSupport
import Foundation
import HDF5
import MATLAB
import Testing

@Suite struct MATFileRoundTripTests {
    /// A 4 × 3 × 2 array whose values encode their subscripts: `100 i + 10 j + k + 0.5`.
    static let cube: MATNumericArray = {
        let dimensions = [4, 3, 2]
        var values: [Double] = []
        for k in 0..<2 { for j in 0..<3 { for i in 0..<4 { values.append(Double(100 * i + 10 * j + k) + 0.5) } } }
        return MATNumericArray(dimensions: dimensions, values: values)
    }()

    @Test(arguments: [(MATFileVersion.mat5, false), (.mat5, true), (.mat73, false), (.mat73, true)])
    func writesAndReadsBack(version: MATFileVersion, compressed: Bool) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cube.mat")
        let matrix = MATNumericArray(dimensions: [2, 3], values: [1, -2, 3.25, 4, 5e-300, -6e300])
        do {
            let file = try MATFile(creatingAt: url, version: version)
            try file.write(Self.cube, named: "cube", compressed: compressed)
            try file.write(matrix, named: "m", compressed: compressed)
            try file.close()
        }
        let file = try MATFile(readingFrom: url)
        #expect(file.version == version)
        #expect(try file.variableNames() == ["cube", "m"])
        let cube = try file.readNumericArray(named: "cube")
        #expect(cube == Self.cube)
        #expect(cube[3, 2, 1] == 321.5)
        #expect(try file.readNumericArray(named: "m") == matrix)
        let info = try file.variableInfo(named: "cube")
        #expect(info.className == "double" && info.dimensions == [4, 3, 2] && !info.isComplex && info.isRealNumeric)
    }

    @Test func columnMajorIndexing() {
        let cube = Self.cube
        #expect(cube.linearIndex([1, 2, 1]) == 1 + 4 * (2 + 3 * 1))
        #expect(cube.subscripts(ofLinearIndex: 23) == [3, 2, 1])
        #expect(cube[1, 2, 1] == 121.5)
    }

    @Test func scipyReadsTheMAT5Writer() throws {
        guard try PythonOracle.requireModules(["scipy.io"]) else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("cube.mat")
        try MATFile(creatingAt: url, version: .mat5).write(Self.cube, named: "cube", compressed: true)
        let script = """
            import json, sys, scipy.io
            a = scipy.io.loadmat(sys.argv[1])["cube"]
            print(json.dumps({"shape": list(a.shape), "values": [float(v) for v in a.flatten(order="F")]}))
            """
        let result = try #require(try PythonOracle.json(script, arguments: [url.path]) as? [String: Any])
        #expect(result["shape"] as? [Int] == [4, 3, 2])
        #expect(result["values"] as? [Double] == Self.cube.values)
    }

    @Test func h5pyReadsTheMAT73Writer() throws {
        guard try PythonOracle.requireH5py() else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("cube.mat")
        try MATFile(creatingAt: url, version: .mat73).write(Self.cube, named: "cube")
        // HDF5 stores MATLAB's column-major array with its dimensions reversed (row-major 2 × 3 × 4).
        let script = """
            import json, sys, h5py
            with h5py.File(sys.argv[1], "r") as f:
                d = f["cube"]
                print(json.dumps({"shape": list(d.shape), "class": d.attrs["MATLAB_class"].decode(), "values": [float(v) for v in d[()].flatten()]}))
            """
        let result = try #require(try PythonOracle.json(script, arguments: [url.path]) as? [String: Any])
        #expect(result["shape"] as? [Int] == [2, 3, 4])
        #expect(result["class"] as? String == "double")
        #expect(result["values"] as? [Double] == Self.cube.values)
    }

    /// MAT 7.3 reads go through libhdf5 while the HDF5 module writes: both take one lock, so
    /// neither corrupts the other's state and every value reads back.
    @Test func concurrentMAT73ReadsAndHDF5Writes() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cube.mat")
        try MATFile(creatingAt: url, version: .mat73).write(Self.cube, named: "cube")
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    if task.isMultiple(of: 2) {
                        for _ in 0..<20 {
                            guard try MATFile(readingFrom: url).readNumericArray(named: "cube") == Self.cube else { return false }
                        }
                    } else {
                        for round in 0..<20 {
                            let file = try HDF5File.create(at: directory.file("h\(task)-\(round).h5"))
                            try file.root().createDataset("x", values: [Float(round)], shape: [1])
                            try file.close()
                        }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
