// swift-tools-version:6.0
// ActionLab: reproducible action-classifier experiments from body pose on Linux.
import PackageDescription

let package = Package(
    name: "ActionLab",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "actionlab", targets: ["actionlab"]),
        .library(name: "Experiment", targets: ["Experiment"]),
    ],
    targets: [
        // System libraries: each is imported by exactly one Swift wrapper module.
        .systemLibrary(
            name: "CHDF5", pkgConfig: "hdf5-serial",
            providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(
            name: "COpenBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // MediaPipe Tasks C API: declarations only; libmediapipe.so is opened with dlopen at run time.
        .systemLibrary(name: "CMediaPipe"),

        // Safe Swift wrappers.
        .target(name: "HDF5", dependencies: ["CHDF5"]),
        .target(name: "Video", dependencies: ["CFFmpeg"]),
        .target(name: "AtomicFiles"),

        // Domain modules, each knowing only the ones to its left in DESIGN.md's data flow.
        .target(name: "JSON5"),
        .target(name: "Pose", dependencies: ["CMediaPipe"]),
        .target(name: "FeatureCache", dependencies: ["HDF5", "Pose", "CCrypto", "AtomicFiles"]),
        // Videos to cached pose sequences: FFmpeg decoding pipelined with MediaPipe pose estimation.
        .target(name: "Extraction", dependencies: ["Video", "Pose", "FeatureCache"]),
        .target(name: "NeuralNetwork", dependencies: ["COpenBLAS", "HDF5", "AtomicFiles"]),
        // Generated skeleton datasets for tests and benchmarks; NeuralNetwork only for SeededGenerator.
        .target(name: "SyntheticData", dependencies: ["Pose", "NeuralNetwork", "AtomicFiles"]),
        // ONNX (protobuf wire format) and safetensors writers.
        .target(name: "ModelExport", dependencies: ["NeuralNetwork", "JSON5"]),
        .target(
            name: "Experiment",
            dependencies: ["JSON5", "Pose", "FeatureCache", "Extraction", "NeuralNetwork", "ModelExport", "HDF5", "Video", "AtomicFiles"]),
        .executableTarget(name: "actionlab", dependencies: ["Experiment", "NeuralNetwork", "SyntheticData", "FeatureCache", "AtomicFiles"]),
        // ActionLab's pose-only rate for scripts/bench-pose.
        .executableTarget(name: "pose-benchmark", dependencies: ["Pose", "_BenchmarkSupport"]),
        // Decoding throughput for scripts/bench-decode; depends on Video only, so it builds quickly.
        .executableTarget(name: "video-benchmark", dependencies: ["Video"]),
        // ActionLab's training rate for scripts/bench-training.
        .executableTarget(name: "training-benchmark", dependencies: ["NeuralNetwork", "Pose", "_BenchmarkSupport"]),
        // Command-line handling shared by the benchmark executables.
        .target(name: "_BenchmarkSupport"),

        // Tests: one target per module plus shared support.
        .target(name: "ActionLabTestSupport", path: "Tests/ActionLabTestSupport"),
        .testTarget(name: "ActionLabCLITests", dependencies: ["actionlab", "ActionLabTestSupport", "HDF5", "NeuralNetwork", "FeatureCache"]),
        .testTarget(name: "HDF5Tests", dependencies: ["HDF5", "ActionLabTestSupport"]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "ActionLabTestSupport"]),
        .testTarget(name: "AtomicFilesTests", dependencies: ["AtomicFiles", "ActionLabTestSupport"]),
        .testTarget(name: "JSON5Tests", dependencies: ["JSON5"]),
        .testTarget(name: "PoseTests", dependencies: ["Pose", "ActionLabTestSupport"]),
        .testTarget(name: "ExtractionTests", dependencies: ["Extraction", "FeatureCache", "Pose", "Video", "ActionLabTestSupport"]),
        .testTarget(name: "FeatureCacheTests", dependencies: ["FeatureCache", "Pose", "HDF5", "ActionLabTestSupport"]),
        .testTarget(
            name: "NeuralNetworkTests", dependencies: ["NeuralNetwork", "ActionLabTestSupport", "HDF5"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "ExperimentTests", dependencies: ["Experiment", "SyntheticData", "ActionLabTestSupport"]),
        .testTarget(name: "SyntheticDataTests", dependencies: ["SyntheticData", "Pose", "ActionLabTestSupport"]),
        .testTarget(name: "ModelExportTests", dependencies: ["ModelExport", "NeuralNetwork"]),
    ],
    swiftLanguageModes: [.v5]
)
