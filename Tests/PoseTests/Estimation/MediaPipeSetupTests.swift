import ActionLabTestSupport
import Foundation
import Pose
import Testing

/// What happens before MediaPipe runs: finding the library and model, option and image checks.
/// None of these need libmediapipe.so.
@Suite struct MediaPipeSetupTests {
    static func candidates(explicit: String? = nil, environment: [String: String] = [:], packageRoot: String? = "/src/actionlab")
        -> [String]
    {
        MediaPipeAssets.candidatePaths(
            explicitPath: explicit, environmentVariable: MediaPipeAssets.libraryEnvironmentVariable,
            defaultRelativePath: MediaPipeAssets.defaultLibraryPath, environment: environment,
            currentDirectory: "/home/user/project", packageRoot: packageRoot)
    }

    @Test("An explicit path wins, then the environment variable, then data/pose under the current directory and the package")
    func resolutionOrder() {
        let variable = MediaPipeAssets.libraryEnvironmentVariable
        #expect(Self.candidates(explicit: "/opt/mp.so", environment: [variable: "/env/mp.so"]) == ["/opt/mp.so"])
        #expect(Self.candidates(environment: [variable: "/env/mp.so"]) == ["/env/mp.so"])
        #expect(
            Self.candidates(environment: [variable: ""])
                == ["/home/user/project/data/pose/libmediapipe.so", "/src/actionlab/data/pose/libmediapipe.so"])
        #expect(Self.candidates(packageRoot: "/home/user/project") == ["/home/user/project/data/pose/libmediapipe.so"])
        #expect(Self.candidates(packageRoot: nil) == ["/home/user/project/data/pose/libmediapipe.so"])
    }

    @Test("A missing library is an error that names the path and scripts/setup")
    func missingLibrary() throws {
        let path = "/nonexistent/actionlab/libmediapipe.so"
        let error = #expect(throws: PoseEstimationError.self) {
            try MediaPipePoseEstimator(options: .init(libraryPath: path))
        }
        #expect(error == .libraryNotFound(searched: [path]))
        #expect(error?.description.contains("libmediapipe.so not found at \(path): run scripts/setup") == true)
    }

    @Test("A file that is not a shared library is refused with the loader's message")
    func unloadableLibrary() throws {
        let directory = try TemporaryDirectory()
        let fake = try writeFixture("not an ELF file", named: "libmediapipe.so", in: directory.url)
        let error = #expect(throws: PoseEstimationError.self) {
            try MediaPipePoseEstimator(options: .init(libraryPath: fake.path))
        }
        guard case let .libraryNotLoadable(path, reason) = error else {
            Issue.record("expected libraryNotLoadable, got \(String(describing: error))")
            return
        }
        #expect(path == fake.path)
        #expect(!reason.isEmpty)
        #expect(error?.description.contains("run scripts/setup") == true)
    }

    @Test("A missing model is an error that names the path and scripts/setup")
    func missingModel() {
        let path = "/nonexistent/pose_landmarker.task"
        let error = #expect(throws: PoseEstimationError.self) { try MediaPipeAssets.modelPath(explicitPath: path) }
        #expect(error == .modelNotFound(searched: [path]))
        #expect(error?.description.contains("run scripts/setup") == true)
    }

    @Test(
        "Options out of range are rejected before anything is loaded",
        arguments: [
            ("numberOfPoses", MediaPipePoseEstimator.Options(numberOfPoses: 0)),
            ("minimumPoseDetectionConfidence", .init(minimumPoseDetectionConfidence: 1.5)),
            ("minimumPosePresenceConfidence", .init(minimumPosePresenceConfidence: -0.1)),
            ("minimumTrackingConfidence", .init(minimumTrackingConfidence: .nan)),
        ])
    func invalidOptions(name: String, options: MediaPipePoseEstimator.Options) {
        let error = #expect(throws: PoseEstimationError.self) {
            try MediaPipePoseEstimator(options: options)
        }
        guard case let .invalidOption(reported, _, _) = error else {
            Issue.record("expected invalidOption, got \(String(describing: error))")
            return
        }
        #expect(reported == name)
    }

    @Test("An image whose byte count does not match its size is rejected")
    func invalidImage() {
        #expect(throws: PoseEstimationError.invalidImage(reason: "2x2 RGB needs 12 bytes, found 11")) {
            try RGBImage(width: 2, height: 2, pixels: Array(repeating: 0, count: 11))
        }
        #expect(throws: PoseEstimationError.self) { try RGBImage(width: 0, height: 2, pixels: []) }
        #expect(throws: Never.self) { try RGBImage(width: 2, height: 1, pixels: Array(repeating: 7, count: 6)) }
    }
}
