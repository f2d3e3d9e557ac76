import ActionLabTestSupport
import Foundation
import MATLAB
import Testing

@Suite struct MATFileReadingTests {
    /// UTD-MHAD's first recording (action 1 "swipe left", subject 1, trial 1).
    static func realFile() throws -> URL {
        try TestData.utdMHADSkeletonFolder().appendingPathComponent("a1_s1_t1_skeleton.mat")
    }

    @Test func realUTDMHADFileMatchesScipy() throws {
        let url = try Self.realFile()
        let file = try MATFile(readingFrom: url)
        #expect(file.version == .mat5)
        #expect(try file.variableNames() == ["d_skel"])
        let skeleton = try file.readNumericArray(named: "d_skel")
        #expect(skeleton.dimensions.count == 3)
        #expect(Array(skeleton.dimensions.prefix(2)) == [20, 3])
        #expect(skeleton.dimensions[2] > 40)

        guard try PythonOracle.requireModules(["scipy.io"]) else { return }
        let script = """
            import json, sys, scipy.io
            a = scipy.io.loadmat(sys.argv[1])["d_skel"]
            print(json.dumps({"shape": list(a.shape), "dtype": str(a.dtype), "values": [float(v).hex() for v in a.flatten(order="F")]}))
            """
        let reference = try #require(try PythonOracle.json(script, arguments: [url.path]) as? [String: Any])
        #expect(reference["shape"] as? [Int] == skeleton.dimensions)
        #expect(reference["dtype"] as? String == "float64")
        // Both read the same IEEE doubles, compared bit for bit (Python sends them as hexadecimal floats).
        let values = try #require(reference["values"] as? [String]).map { Double($0) }
        #expect(values == skeleton.values.map(Optional.some))
    }

    @Test func missingVariableListsThePresentOnes() throws {
        let file = try MATFile(readingFrom: try Self.realFile())
        let error = try #require(throws: MATFileError.self) { try file.readNumericArray(named: "skeleton") }
        #expect(error.kind == .variableNotFound(available: ["d_skel"]))
        #expect(error.variable == "skeleton")
        #expect(error.description.contains("'d_skel'"))
    }

    @Test func truncatedMAT5FileFailsToRead() throws {
        let directory = try TemporaryDirectory()
        let bytes = try Data(contentsOf: try Self.realFile())
        let url = directory.file("half.mat")
        try bytes.prefix(bytes.count / 2).write(to: url)
        let error = try #require(throws: MATFileError.self) {
            try MATFile(readingFrom: url).readNumericArray(named: "d_skel")
        }
        #expect(error.kind == .readFailed)
        #expect(error.filePath == url.path && error.variable == "d_skel")
        // libmatio's own words, captured instead of printed.
        #expect(error.matioMessage.contains("EOF"))
    }

    @Test func truncatedMAT73FileFailsToOpen() throws {
        let directory = try TemporaryDirectory()
        let whole = directory.file("whole.mat")
        try MATFile(creatingAt: whole, version: .mat73).write(MATFileRoundTripTests.cube, named: "cube")
        let bytes = try Data(contentsOf: whole)
        let url = directory.file("half.mat")
        try bytes.prefix(bytes.count / 2).write(to: url)
        let error = try #require(throws: MATFileError.self) {
            try MATFile(readingFrom: url).readNumericArray(named: "cube")
        }
        #expect(error.kind == .cannotOpenFile)
        #expect(error.filePath == url.path)
        #expect(error.description.contains("truncated"), "\(error)")
    }

    @Test func textFileIsNotAMATFile() throws {
        let directory = try TemporaryDirectory()
        let url = try writeFixture("timestamp,nose.x\n0,1\n", named: "keypoints.mat", in: directory.url)
        let error = try #require(throws: MATFileError.self) { try MATFile(readingFrom: url) }
        #expect(error.kind == .cannotOpenFile)
        #expect(error.matioMessage.contains("does not seem to be a valid MAT file"))
    }

    /// libmatio takes an empty file for MAT 4 (no header); it was called "a MAT 4 file".
    @Test func emptyFileIsCalledEmpty() throws {
        let directory = try TemporaryDirectory()
        let url = try writeFixture("", named: "empty.mat", in: directory.url)
        let error = try #require(throws: MATFileError.self) { try MATFile(readingFrom: url) }
        #expect(error.kind == .cannotOpenFile && error.matioMessage == "an empty file (0 bytes)", "\(error)")
        #expect(!error.description.contains("MAT 4") && error.description.contains("empty.mat"), "\(error)")
    }

    @Test func missingFile() throws {
        let error = try #require(throws: MATFileError.self) {
            try MATFile(readingFrom: URL(fileURLWithPath: "/nonexistent/none.mat"))
        }
        #expect(error.kind == .fileNotFound)
    }

    /// Variables that are not real numeric arrays, made by scipy.io.savemat: each names what it is.
    @Test func nonNumericVariablesAreRefused() throws {
        guard try PythonOracle.requireModules(["scipy.io", "scipy.sparse", "numpy"]) else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("kinds.mat")
        let script = """
            import sys, numpy as np, scipy.io, scipy.sparse
            cell = np.empty((1, 2), dtype=object); cell[0, 0] = np.zeros((2, 2)); cell[0, 1] = "x"
            scipy.io.savemat(sys.argv[1], {
                "c": cell, "s": {"a": 1.0}, "z": np.array([[1 + 2j, 3]]), "text": "hello",
                "sp": scipy.sparse.csc_matrix(np.eye(3)), "single": np.ones((2, 3), dtype=np.float32),
                "ints": np.arange(6, dtype=np.int16).reshape(2, 3)})
            """
        let result = try PythonOracle.run(script, arguments: [url.path])
        try #require(result.status == 0, "\(result.errorOutput)")
        let file = try MATFile(readingFrom: url)
        for (name, kind) in [("c", "cell"), ("s", "struct"), ("z", "complex double"), ("text", "char"), ("sp", "sparse")] {
            let error = try #require(throws: MATFileError.self) { try file.readNumericArray(named: name) }
            guard case let .notRealNumeric(found) = error.kind else {
                Issue.record("\(name): expected notRealNumeric, got \(error)")
                continue
            }
            #expect(found.hasSuffix(kind), "\(name): \(found)")
            #expect(error.variable == name)
        }
        // Other numeric classes convert to Double, column-major as stored.
        #expect(try file.readNumericArray(named: "single") == MATNumericArray(dimensions: [2, 3], values: Array(repeating: 1, count: 6)))
        #expect(try file.readNumericArray(named: "ints") == MATNumericArray(dimensions: [2, 3], values: [0, 3, 1, 4, 2, 5]))
    }

    @Test func closedFileAndBadShapes() throws {
        let directory = try TemporaryDirectory()
        let file = try MATFile(creatingAt: directory.file("x.mat"), version: .mat5)
        let wrongCount = #expect(throws: MATFileError.self) {
            try file.write(MATNumericArray(dimensions: [2, 2], values: [1, 2, 3]), named: "x")
        }
        #expect(wrongCount?.kind == .invalidShape(dimensions: [2, 2], valueCount: 3))
        let vector = #expect(throws: MATFileError.self) {
            try file.write(MATNumericArray(dimensions: [3], values: [1, 2, 3]), named: "x")
        }
        #expect(vector?.kind == .invalidShape(dimensions: [3], valueCount: 3))
        try file.close()
        try file.close()
        #expect(!file.isOpen)
        let closed = #expect(throws: MATFileError.self) { try file.variableNames() }
        #expect(closed?.kind == .fileClosed)
    }
}
