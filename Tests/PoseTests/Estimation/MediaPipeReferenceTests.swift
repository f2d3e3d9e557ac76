import ActionLabTestSupport
import Foundation
import Pose
import Testing

/// ActionLab's estimator against MediaPipe's own Python API (the oracle), same library, model and
/// pixels: the landmarks must agree, which checks the C declarations, the image hand-over and the
/// options. Needs `scripts/setup` (it makes data/pose/.venv-reference); fails saying so otherwise.
@Suite struct MediaPipeReferenceTests {
    /// Absolute tolerance on normalized coordinates, depth and scores: both sides run the same
    /// library on the same input, so only Float32 to JSON to Double conversions separate them.
    /// (MediaPipe's pose landmarks always carry visibility and presence; a nil one fails.)
    static let tolerance: Float = 1e-5

    static var referenceInterpreter: URL {
        TestData.root.appendingPathComponent("pose/.venv-reference/bin/python")
    }

    @Test(
        "Landmarks equal those of MediaPipe's Python API on messi5.jpg",
        arguments: MediaPipePoseEstimator.Options.RunningMode.allCases)
    func matchesPythonAPI(mode: MediaPipePoseEstimator.Options.RunningMode) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.referenceInterpreter.path),
            "missing \(Self.referenceInterpreter.path): run scripts/setup")
        let image = try MediaPipePoseEstimatorTests.messi()
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: mode))
        let timestampsMilliseconds = [0, 33, 67]
        let actual = try timestampsMilliseconds.map { try estimator.detectLandmarks(in: image, at: Double($0) / 1000) }

        let directory = try TemporaryDirectory()
        let pixels = directory.file("frame.rgb")
        try Data(image.pixels).write(to: pixels)
        let script = TestData.packageRoot.appendingPathComponent("scripts/pose/mediapipe_reference.py")
        let output = try PythonOracle.json(
            try String(contentsOf: script, encoding: .utf8),
            arguments: [
                "--pixels", pixels.path, "--width", "\(image.width)", "--height", "\(image.height)",
                "--model", estimator.modelPath, "--mode", mode.rawValue,
                "--timestamps-ms", timestampsMilliseconds.map(String.init).joined(separator: ","),
            ],
            interpreter: Self.referenceInterpreter.path)
        let expected = try #require(output as? [[[[Double]]]], "unexpected reference output: \(String(describing: output))")

        try #require(expected.count == actual.count)
        for (call, (expectedPeople, actualPeople)) in zip(expected, actual).enumerated() {
            try #require(expectedPeople.count == actualPeople.count, "call \(call): number of people")
            for (expectedPerson, actualPerson) in zip(expectedPeople, actualPeople) {
                try #require(expectedPerson.count == actualPerson.count)
                for (index, (reference, landmark)) in zip(expectedPerson, actualPerson).enumerated() {
                    let values: [Float?] = [landmark.x, landmark.y, landmark.z, landmark.visibility, landmark.presence]
                    for (value, referenceValue) in zip(values, reference) {
                        let difference = value.map { abs($0 - Float(referenceValue)) } ?? .infinity
                        #expect(difference <= Self.tolerance, "call \(call), landmark \(index): \(values) vs \(reference)")
                    }
                }
            }
        }
    }
}
