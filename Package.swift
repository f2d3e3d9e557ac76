// swift-tools-version:6.0
// ActionLab: reproducible action-classifier experiments from body pose on Linux.
import PackageDescription

let package = Package(
    name: "ActionLab",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "actionlab", targets: ["actionlab"]),
        .library(name: "ActionLab", targets: ["Manifest", "Dataset", "Training", "Reports", "Sweeps", "Export", "Prediction"]),
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
            // libavdevice (live capture devices) is loaded at run time: see cffmpeg_register_devices.
            name: "CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavdevice-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libmatio: MATLAB MAT-files (MAT 5, and MAT 7.3 through Debian's libhdf5-serial).
        .systemLibrary(
            name: "CMatio", pkgConfig: "matio",
            providers: [.apt(["libmatio-dev"])]),
        // MediaPipe Tasks C API: declarations only; libmediapipe.so is opened with dlopen at run time.
        .systemLibrary(name: "CMediaPipe"),

        // Safe Swift wrappers.
        .target(name: "HDF5", dependencies: ["CHDF5"]),
        .target(name: "Video", dependencies: ["CFFmpeg"]),
        // MAT 7.3 files are HDF5: every libmatio call takes the HDF5 module's lock.
        .target(name: "MATLAB", dependencies: ["CMatio", "HDF5"]),
        .target(name: "AtomicFiles"),

        // Domain modules, each knowing only the ones to its left in DESIGN.md's data flow.
        .target(name: "JSON5"),
        .target(name: "Pose", dependencies: ["CMediaPipe", "MATLAB", "AtomicFiles"]),
        // SHA-256 content hashes (OpenSSL): of bytes, text and NUL-separated fields.
        .target(name: "ContentHashing", dependencies: ["CCrypto"]),
        .target(name: "FeatureCache", dependencies: ["HDF5", "Pose", "ContentHashing", "AtomicFiles"]),
        // Videos to cached pose sequences: FFmpeg decoding pipelined with MediaPipe pose estimation.
        .target(name: "Extraction", dependencies: ["Video", "Pose", "FeatureCache", "ContentHashing"]),
        // One seeded random number generator for every stream (initialization, shuffling, augmentation).
        .target(name: "Randomness"),
        .target(name: "NeuralNetwork", dependencies: ["COpenBLAS", "ContentHashing", "HDF5", "AtomicFiles", "Randomness"]),
        // Generated skeleton datasets for tests and benchmarks.
        .target(name: "SyntheticData", dependencies: ["Pose", "Randomness", "AtomicFiles"]),
        // Protocol Buffers wire format, for the file formats built on it.
        .target(name: "Protobuf"),
        // TensorBoard event files (TFRecord framing, Event and Summary protobufs, HParams plugin data).
        .target(name: "TensorBoard", dependencies: ["Protobuf", "AtomicFiles"]),
        // ONNX (protobuf wire format) and safetensors writers.
        .target(name: "ModelExport", dependencies: ["NeuralNetwork", "JSON5", "Protobuf"]),

        // The experiment pipeline, one concern per module, each knowing only the ones before it
        // (DESIGN.md's data flow): Manifest -> Dataset -> Training -> Reports -> Sweeps -> Export.
        // Transformations of keypoint windows applied on the fly while training.
        .target(name: "Augmentation", dependencies: ["Pose", "Randomness"]),
        // Reading a JSON5 manifest: typed values with bounds, unknown keys with spelling
        // suggestions, every problem located at its file, line, column and JSON path.
        .target(name: "ManifestSchema", dependencies: ["JSON5"]),
        // The model families a manifest can name: each family's settings, builder, description and
        // ONNX translation in one folder, registered once (ModelRegistry.builtIn).
        .target(name: "Models", dependencies: ["ManifestSchema", "NeuralNetwork", "ModelExport", "Pose", "Randomness"]),
        // Typed configuration of an experiment, read from a JSON5 manifest.
        .target(name: "Manifest", dependencies: ["ManifestSchema", "Models", "JSON5", "Pose", "Augmentation", "NeuralNetwork"]),
        // Sources, import through the feature cache, splits, windows and the training-data check.
        .target(name: "Dataset", dependencies: ["Manifest", "Pose", "FeatureCache", "ContentHashing", "Extraction", "NeuralNetwork", "Randomness", "AtomicFiles"]),
        // Model construction, the seeded trainer and evaluation (metrics, confusion matrices).
        .target(name: "Training", dependencies: ["Dataset", "Manifest", "Models", "Augmentation", "NeuralNetwork", "Pose", "Randomness"]),
        // Run files: tables (CSV, Markdown), SVG charts, provenance.
        .target(name: "Reports", dependencies: ["Training", "Dataset", "AtomicFiles", "HDF5", "Video", "NeuralNetwork"]),
        // Sweep plans, trials, launchers, leaderboard, summary and comparison.
        .target(
            name: "Sweeps",
            dependencies: ["Reports", "Training", "Dataset", "Manifest", "ManifestSchema", "JSON5", "FeatureCache", "ContentHashing", "NeuralNetwork", "AtomicFiles", "TensorBoard", "HDF5"]),
        // A sweep folder's trials logged to an MLflow tracking server (REST API).
        .target(name: "MLflow", dependencies: ["Sweeps", "Reports", "Training", "ContentHashing", "JSON5", "AtomicFiles"]),
        // The best trial's model to ONNX, safetensors and HDF5, with a model card.
        .target(
            name: "Export",
            dependencies: ["Sweeps", "Reports", "Training", "Manifest", "ManifestSchema", "ModelExport", "Protobuf", "NeuralNetwork", "ContentHashing", "Randomness", "AtomicFiles", "JSON5"]),
        // A trained model on new poses: sliding windows, thresholds, smoothing, segments,
        // repetition counts and temporal evaluation.
        .target(
            name: "Prediction",
            dependencies: ["Export", "Reports", "Training", "Dataset", "Manifest", "Pose", "Video", "Extraction", "FeatureCache", "ContentHashing", "NeuralNetwork", "AtomicFiles", "JSON5"]),
        // The git commit of the build, recorded at build time (a prebuild command of GitCommitPlugin);
        // only the executable depends on it, so a new commit recompiles it alone.
        .plugin(name: "GitCommitPlugin", capability: .buildTool(), path: "Sources/GitCommitPlugin"),
        .target(name: "BuildInfo", plugins: ["GitCommitPlugin"]),
        .executableTarget(
            name: "actionlab",
            dependencies: ["Prediction", "Export", "MLflow", "Sweeps", "Reports", "Training", "Dataset", "Manifest", "NeuralNetwork", "SyntheticData", "FeatureCache", "AtomicFiles", "Randomness", "BuildInfo"]),
        // ActionLab's pose-only rate for scripts/bench-pose.
        .executableTarget(name: "pose-benchmark", dependencies: ["Pose", "_BenchmarkSupport"]),
        // Decoding throughput for scripts/bench-decode; depends on Video only, so it builds quickly.
        .executableTarget(name: "video-benchmark", dependencies: ["Video"]),
        // ActionLab's training rate for scripts/bench-training.
        .executableTarget(name: "training-benchmark", dependencies: ["Models", "NeuralNetwork", "Pose", "Randomness", "_BenchmarkSupport"]),
        // ActionLab's classifier rate at batch 1 (Predictor.probabilities) for scripts/bench-predict.
        .executableTarget(
            name: "prediction-benchmark",
            dependencies: ["Prediction", "Models", "ModelExport", "NeuralNetwork", "Pose", "Randomness", "AtomicFiles", "_BenchmarkSupport"]),
        // Command-line handling shared by the benchmark executables.
        .target(name: "_BenchmarkSupport"),

        // Tests: one target per module plus shared support.
        .target(name: "ActionLabTestSupport", path: "Tests/ActionLabTestSupport"),
        // Checks every layer and classifier passes: finite-difference gradients, seeded determinism, round trips.
        // Real sweeps shared by the suites that read a finished sweep folder (trained once per test process).
        .target(name: "SweepTestSupport", dependencies: ["Sweeps", "Manifest", "Models", "Training", "ActionLabTestSupport"], path: "Tests/SweepTestSupport"),
        .target(name: "NeuralNetworkTestSupport", dependencies: ["NeuralNetwork", "Randomness"], path: "Tests/NeuralNetworkTestSupport"),
        .testTarget(name: "ActionLabCLITests", dependencies: ["actionlab", "ActionLabTestSupport", "HDF5", "NeuralNetwork", "FeatureCache", "Sweeps"]),
        .testTarget(name: "HDF5Tests", dependencies: ["HDF5", "ActionLabTestSupport"]),
        .testTarget(name: "MATLABTests", dependencies: ["MATLAB", "HDF5", "ActionLabTestSupport"]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "ActionLabTestSupport"]),
        .testTarget(name: "AtomicFilesTests", dependencies: ["AtomicFiles", "ActionLabTestSupport"]),
        .testTarget(name: "JSON5Tests", dependencies: ["JSON5"]),
        .testTarget(name: "PoseTests", dependencies: ["Pose", "MATLAB", "ActionLabTestSupport"]),
        .testTarget(name: "ExtractionTests", dependencies: ["Extraction", "FeatureCache", "Pose", "Video", "ActionLabTestSupport"]),
        .testTarget(name: "ContentHashingTests", dependencies: ["ContentHashing"]),
        .testTarget(name: "FeatureCacheTests", dependencies: ["FeatureCache", "ContentHashing", "AtomicFiles", "Pose", "HDF5", "ActionLabTestSupport"]),
        .testTarget(
            name: "NeuralNetworkTests", dependencies: ["NeuralNetwork", "NeuralNetworkTestSupport", "ActionLabTestSupport", "HDF5", "Randomness"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "RandomnessTests", dependencies: ["Randomness"]),
        .testTarget(name: "AugmentationTests", dependencies: ["Augmentation", "Manifest", "Pose", "Randomness"]),
        .testTarget(
            name: "ManifestTests", dependencies: ["Manifest", "ManifestSchema", "Models", "NeuralNetwork", "Pose", "ActionLabTestSupport"],
            resources: [.copy("Golden")]),
        .testTarget(name: "DatasetTests", dependencies: ["Dataset", "Manifest", "Pose", "FeatureCache", "MATLAB", "ActionLabTestSupport"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "ActionLabTestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Training", "ActionLabTestSupport"]),
        .testTarget(
            name: "SweepsTests",
            dependencies: ["Sweeps", "Reports", "Training", "Dataset", "Manifest", "ManifestSchema", "JSON5", "Models", "FeatureCache", "HDF5", "NeuralNetwork", "Randomness", "SyntheticData", "TensorBoard", "ActionLabTestSupport", "SweepTestSupport"]),
        .testTarget(
            name: "ExportTests",
            dependencies: ["Export", "Sweeps", "Training", "Reports", "Dataset", "Manifest", "Models", "ModelExport", "NeuralNetwork", "FeatureCache", "SyntheticData", "ActionLabTestSupport", "SweepTestSupport"]),
        .testTarget(
            name: "PredictionTests",
            dependencies: ["Prediction", "Export", "MLflow", "Sweeps", "Training", "Dataset", "Manifest", "Models", "Pose", "Video", "NeuralNetwork", "FeatureCache", "SyntheticData", "ActionLabTestSupport", "SweepTestSupport"]),
        .testTarget(name: "SyntheticDataTests", dependencies: ["SyntheticData", "Pose", "Randomness", "ActionLabTestSupport"]),
        .testTarget(name: "ProtobufTests", dependencies: ["Protobuf"]),
        .testTarget(name: "MLflowTests", dependencies: ["MLflow", "Sweeps", "Manifest", "Reports", "Training", "ActionLabTestSupport", "SweepTestSupport"]),
        .testTarget(name: "TensorBoardTests", dependencies: ["TensorBoard", "Protobuf", "ActionLabTestSupport"]),
        .testTarget(name: "ModelExportTests", dependencies: ["ModelExport", "Protobuf", "NeuralNetwork", "NeuralNetworkTestSupport", "Randomness", "ActionLabTestSupport"]),
        .testTarget(
            name: "ModelsTests",
            dependencies: ["Models", "Manifest", "ModelExport", "Protobuf", "NeuralNetwork", "Pose", "Randomness", "ActionLabTestSupport", "NeuralNetworkTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
