import ActionLabTestSupport
import Foundation
import MATLAB
import Pose
import Testing

@Suite struct MATFileImporterTests {
    let importer = MATFileImporter(variable: "d_skel", axes: [.joint, .channel, .time])

    /// A UTD-MHAD-shaped `d_skel` (20 × 3 × frames, column-major) whose value at joint j, channel c,
    /// frame t is `t + c / 10 + j / 1000`.
    static func skeleton(frames: Int) -> MATNumericArray {
        var values: [Double] = []
        for t in 0..<frames { for c in 0..<3 { for j in 0..<20 { values.append(Double(t) + Double(c) / 10 + Double(j) / 1000) } } }
        return MATNumericArray(dimensions: [20, 3, frames], values: values)
    }

    static func write(_ arrays: [String: MATNumericArray], to url: URL, version: MATFileVersion = .mat5) throws {
        let file = try MATFile(creatingAt: url, version: version)
        for name in arrays.keys.sorted() { try file.write(arrays[name] ?? MATNumericArray(dimensions: [0, 0], values: []), named: name) }
        try file.close()
    }

    @Test(arguments: MATFileVersion.allCases)
    func mapsJCTToTCJ(version: MATFileVersion) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a1_s1_t1_skeleton.mat")
        try Self.write(["d_skel": Self.skeleton(frames: 5)], to: url, version: version)
        let sequences = try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "swipe")
        let sequence = try #require(sequences.first?.sequence)
        #expect(sequences.count == 1)
        #expect(sequences.first?.label == "swipe")
        #expect(sequences.first?.id == url.path)
        #expect(sequence.frameCount == 5)
        #expect(sequence.channelCount == 3)
        #expect(sequence.jointCount == 20)
        // [T, C, J]: frame 4, channel z (2), joint 17 (rightKnee) is 4 + 0.2 + 0.017.
        let frame4Z17: Float = sequence.keypoints[4 * 60 + 2 * 20 + 17]
        #expect(frame4Z17 == Float(4.217))
        let frame0Y3: Float = sequence.keypoints[1 * 20 + 3]
        #expect(frame0Y3 == Float(0.103))
        let expectedTimes: [Double] = (0..<5).map { Double($0) / 30 }
        #expect(sequence.timestamps == expectedTimes)
        #expect(sequence.frameRate == 30)
    }

    @Test func otherAxisOrders() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("tcj.mat")
        // [T, C, J] stored column-major: T varies fastest. 2 frames, 3 channels, 20 joints.
        var values: [Double] = []
        for j in 0..<20 { for c in 0..<3 { for t in 0..<2 { values.append(Double(100 * t + 10 * c + j)) } } }
        try Self.write(["k": MATNumericArray(dimensions: [2, 3, 20], values: values)], to: url)
        let sequence = try #require(
            try MATFileImporter(variable: "k").importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x").first?.sequence)
        let value: Float = sequence.keypoints[1 * 60 + 2 * 20 + 19]
        #expect(value == 139)
    }

    @Test func realUTDMHADFile() throws {
        let url = try TestData.utdMHADSkeletonFolder().appendingPathComponent("a1_s1_t1_skeleton.mat")
        let raw = try MATFile(readingFrom: url).readNumericArray(named: "d_skel")
        let sequence = try #require(try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "1").first?.sequence)
        #expect(sequence.frameCount == raw.dimensions[2])
        // MATLAB d_skel(4, 2, 11): hipCenter (joint 3), y (channel 1), frame 10.
        let hipCenterY: Float = sequence.keypoints[10 * 60 + 1 * 20 + 3]
        #expect(hipCenterY == Float(raw[3, 1, 10]))
    }

    @Test func truncatedFile() throws {
        let directory = try TemporaryDirectory()
        let bytes = try Data(contentsOf: try TestData.utdMHADSkeletonFolder().appendingPathComponent("a1_s1_t1_skeleton.mat"))
        let url = directory.file("half.mat")
        try bytes.prefix(bytes.count / 2).write(to: url)
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        guard case let .unreadable(reason) = error.kind else {
            Issue.record("expected unreadable, got \(error)")
            return
        }
        #expect(error.path == url.path)
        #expect(reason.contains("d_skel"), "\(reason)")
        #expect(reason.contains("truncated"), "\(reason)")
    }

    @Test func notAMATFile() throws {
        let directory = try TemporaryDirectory()
        let url = try writeFixture("head.x,head.y\n", named: "a.mat", in: directory.url)
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(error.description.hasPrefix("\(url.path): cannot read:"))
        #expect(error.description.contains("not a MAT 5 or MAT 7.3 file"))
    }

    @Test func missingVariableListsThePresentOnes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.mat")
        try Self.write(["skeleton": Self.skeleton(frames: 2), "depth": MATNumericArray(dimensions: [1, 1], values: [0])], to: url)
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(error.kind == .noSuchVariable(variable: "d_skel", present: ["depth", "skeleton"]))
        #expect(error.description == "\(url.path): no variable 'd_skel' in the MAT-file; the variables present are: 'depth', 'skeleton'")
    }

    @Test func wrongRank() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.mat")
        try Self.write(["d_skel": MATNumericArray(dimensions: [20, 6], values: Array(repeating: 0, count: 120))], to: url)
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(error.kind == .wrongRank(variable: "d_skel", axes: ["J", "C", "T"], dimensions: [20, 6]))
        #expect(error.message.contains("expected 3 dimensions (J, C, T), found 2 (20×6)"))
    }

    @Test func dimensionsMustMatchTheLayout() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.mat")
        try Self.write(["d_skel": MATNumericArray(dimensions: [25, 3, 2], values: Array(repeating: 0, count: 150))], to: url)
        let joints = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(joints.message == "variable 'd_skel' is 25×3×2 (J × C × T): expected 20 joints (layout 'kinect-v1') along dimension 1 (J), found 25")
        try Self.write(["d_skel": MATNumericArray(dimensions: [20, 4, 2], values: Array(repeating: 0, count: 160))], to: url)
        let channels = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(channels.message.contains("expected 3 channels (layout 'kinect-v1') along dimension 2 (C), found 4"))
    }

    @Test func nonFiniteValueIsLocated() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("a.mat")
        var skeleton = Self.skeleton(frames: 4)
        skeleton.values[skeleton.linearIndex([7, 2, 3])] = .nan
        try Self.write(["d_skel": skeleton], to: url)
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(error.kind == .nonFiniteValue(
            sampleID: url.path, token: "nan", location: .element(variable: "d_skel", axes: ["J", "C", "T"], subscripts: [7, 2, 3])))
        #expect(error.message.contains("variable 'd_skel' index [J 7, C 2, T 3] (0-based; MATLAB d_skel(8,3,4))"), "\(error)")
    }

    @Test func nonNumericVariable() throws {
        guard try PythonOracle.requireModules(["scipy.io", "numpy"]) else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("cell.mat")
        let result = try PythonOracle.run(
            "import sys, numpy as np, scipy.io\nc = np.empty((1, 2), dtype=object); c[0, 0] = 1.0; c[0, 1] = 'x'\nscipy.io.savemat(sys.argv[1], {'d_skel': c})",
            arguments: [url.path])
        try #require(result.status == 0, "\(result.errorOutput)")
        let error = try #require(throws: ImportError.self) { try importer.importSequences(from: url, layout: .kinectV1, frameRate: 30, label: "x") }
        #expect(error.kind == .unsupportedVariable(variable: "d_skel", found: "1×2 cell"))
    }

    /// Every UTD-MHAD recording imports: 861 files, 20 joints × 3 channels at 30 fps, 41 to 125 frames.
    @Test func allUTDMHADFilesImport() throws {
        let folder = try TestData.utdMHADSkeletonFolder()
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mat" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(files.count == 861)
        var lengths: [Int] = []
        for file in files {
            let sequences = try importer.importSequences(from: file, layout: .kinectV1, frameRate: 30, label: "x")
            let sequence = try #require(sequences.first?.sequence)
            let shapeMatches = sequences.count == 1 && sequence.jointCount == 20 && sequence.channelCount == 3 && sequence.frameRate == 30
            #expect(shapeMatches, "\(file.lastPathComponent)")
            lengths.append(sequence.frameCount)
        }
        #expect(lengths.min() == 41)
        #expect(lengths.max() == 125)
    }
}
