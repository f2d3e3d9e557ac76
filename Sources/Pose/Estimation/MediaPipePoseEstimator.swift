internal import CMediaPipe
import Foundation
import Synchronization

/// Estimates body pose with MediaPipe's pose landmarker (BlazePose, 33 landmarks) and reports it
/// as Create ML's ``SkeletonLayout/vision18`` keypoints in Vision's convention.
///
/// The estimator owns one MediaPipe `PoseLandmarker`, released by ``close()`` or when the
/// estimator is deinitialized. libmediapipe.so is opened at run time (``MediaPipeAssets`` says
/// where it is looked for), so code that never creates an estimator runs without it. Calls are
/// serialized by a lock: MediaPipe's own Python API likewise sends every call on one landmarker
/// through a single thread. What MediaPipe prints while a landmarker is created, runs its first
/// frame and is closed goes through ``MediaPipeLogFilter``, which drops its routine chatter; so do
/// the frames of every landmarker until the first frame in the process with a person, where
/// MediaPipe logs a warning once per process (`Using NORM_RECT without IMAGE_DIMENSIONS`).
///
/// In ``Options/RunningMode-swift.enum/video`` mode the landmarker tracks people from frame to
/// frame and frames must come in display order with strictly increasing timestamps (milliseconds
/// after rounding); ``Options/RunningMode-swift.enum/image`` mode treats every picture on its own.
///
/// `@unchecked Sendable`: the mutable state (`landmarker`, `previousTimestampMilliseconds`) is
/// read and written only with `lock` held, and `library` is immutable.
public final class MediaPipePoseEstimator: PoseEstimator, @unchecked Sendable {
    /// The options the estimator was created with.
    public let options: Options
    /// The libmediapipe.so in use.
    public let libraryPath: String
    /// The model bundle in use.
    public let modelPath: String

    private let library: MediaPipeLibrary
    private let lock = NSLock()
    private var landmarker: MpPoseLandmarkerPtr?
    private var previousTimestampMilliseconds: Int64?
    /// Whether a frame has been estimated (the first detection logs; see ``MediaPipeLogFilter``).
    private var hasDetected = false
    /// Whether any landmarker of this process has found a person: MediaPipe's landmark
    /// projection logs its warning once per process, on that frame, so detections are captured
    /// until then.
    private static let personFound = Atomic<Bool>(false)

    /// Creates a pose landmarker.
    /// - Parameter options: Model, running mode, number of people and confidence thresholds.
    /// - Throws: ``PoseEstimationError``: an option out of range, the library or model missing
    ///   (the message says to run `scripts/setup`), or MediaPipe's own error creating the landmarker.
    public init(options: Options = Options()) throws {
        try options.validate()
        let libraryPath = try MediaPipeAssets.libraryPath(explicitPath: options.libraryPath)
        let modelPath = try MediaPipeAssets.modelPath(explicitPath: options.modelPath)
        let library = try MediaPipeLogFilter.capturing { try MediaPipeLibrary.shared(at: libraryPath) }
        var handle: MpPoseLandmarkerPtr?
        try MediaPipeLogFilter.capturing { try modelPath.withCString { modelPathPointer in
            var landmarkerOptions = MpPoseLandmarkerOptions()  // zeroed: no buffer, no callback, no masks
            landmarkerOptions.base_options.model_asset_path = modelPathPointer
            landmarkerOptions.base_options.file_descriptor = -1  // the model comes from the path
            landmarkerOptions.base_options.delegate = Int32(kMpDelegateCpu.rawValue)
            landmarkerOptions.running_mode = Int32(options.runningMode.mediaPipeValue.rawValue)
            landmarkerOptions.num_poses = Int32(options.numberOfPoses)
            landmarkerOptions.min_pose_detection_confidence = options.minimumPoseDetectionConfidence
            landmarkerOptions.min_pose_presence_confidence = options.minimumPosePresenceConfidence
            landmarkerOptions.min_tracking_confidence = options.minimumTrackingConfidence
            try library.check("MpPoseLandmarkerCreate") {
                library.poseLandmarkerCreate(&landmarkerOptions, &handle, $0)
            }
        } }
        guard let handle else { throw PoseEstimationError.noResult(function: "MpPoseLandmarkerCreate") }
        self.options = options
        self.libraryPath = libraryPath
        self.modelPath = modelPath
        self.library = library
        self.landmarker = handle
    }

    deinit {
        try? close()
    }

    /// Releases the landmarker; later calls throw ``PoseEstimationError/closed``. Closing twice does nothing.
    /// - Throws: MediaPipe's error if closing fails (the landmarker is released regardless).
    public func close() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let landmarker else { return }
        self.landmarker = nil
        try MediaPipeLogFilter.capturing {
            try library.check("MpPoseLandmarkerClose") { library.poseLandmarkerClose(landmarker, $0) }
        }
    }

    /// Finds people in one frame; see ``PoseEstimator/estimatePeople(in:at:)``.
    ///
    /// Each person's 33 landmarks become ``SkeletonLayout/vision18`` keypoints by
    /// ``BlazePose/vision18Person(from:)``.
    public func estimatePeople(in image: RGBImage, at timestamp: Double) throws -> [DetectedPerson] {
        try detectLandmarks(in: image, at: timestamp).map(BlazePose.vision18Person(from:))
    }

    /// The landmarks MediaPipe reports for one frame, unconverted.
    /// - Parameters:
    ///   - image: The frame as displayed.
    ///   - timestamp: Seconds from the first displayed frame; ignored in image mode, rounded to
    ///     whole milliseconds in video mode, where it must increase strictly.
    /// - Returns: One `[33]` array of ``BlazePoseLandmark`` per person, at most
    ///   ``Options/numberOfPoses`` of them; MediaPipe's image coordinates (origin top left).
    /// - Throws: ``PoseEstimationError``.
    public func detectLandmarks(in image: RGBImage, at timestamp: Double) throws -> [[BlazePoseLandmark]] {
        lock.lock()
        defer { lock.unlock() }
        guard let landmarker else { throw PoseEstimationError.closed }
        let milliseconds = try videoTimestampMilliseconds(timestamp)
        guard hasDetected, Self.personFound.load(ordering: .relaxed) else {
            hasDetected = true
            let people = try MediaPipeLogFilter.capturing { try detect(in: image, milliseconds: milliseconds, landmarker: landmarker) }
            if !people.isEmpty { Self.personFound.store(true, ordering: .relaxed) }
            return people
        }
        return try detect(in: image, milliseconds: milliseconds, landmarker: landmarker)
    }

    /// One detection call, with `lock` held.
    private func detect(in image: RGBImage, milliseconds: Int64, landmarker: MpPoseLandmarkerPtr) throws -> [[BlazePoseLandmark]] {
        try withMediaPipeImage(image) { mediaPipeImage in
            var result = MpPoseLandmarkerResult()
            switch options.runningMode {
            case .image:
                try library.check("MpPoseLandmarkerDetectImage") {
                    library.poseLandmarkerDetectImage(landmarker, mediaPipeImage, nil, &result, $0)
                }
            case .video:
                try library.check("MpPoseLandmarkerDetectForVideo") {
                    library.poseLandmarkerDetectForVideo(landmarker, mediaPipeImage, nil, milliseconds, &result, $0)
                }
                previousTimestampMilliseconds = milliseconds
            }
            defer { library.poseLandmarkerCloseResult(&result) }
            return Self.landmarks(of: result)
        }
    }

    /// The timestamp in milliseconds for video mode, checked to follow the previous frame's.
    private func videoTimestampMilliseconds(_ timestamp: Double) throws -> Int64 {
        guard options.runningMode == .video else { return 0 }
        let milliseconds = (timestamp * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 0x1p62 else {
            throw PoseEstimationError.invalidOption(name: "timestamp", value: "\(timestamp)", expected: "a finite time in seconds")
        }
        let value = Int64(milliseconds)
        if let previous = previousTimestampMilliseconds, value <= previous {
            throw PoseEstimationError.timestampNotIncreasing(previousMilliseconds: previous, milliseconds: value)
        }
        return value
    }

    /// Runs `body` with a MediaPipe image made from `image`'s pixels, freed when `body` returns.
    /// The pixels stay pinned for the whole call, whether or not MediaPipe copies them.
    private func withMediaPipeImage<Result>(_ image: RGBImage, _ body: (MpImagePtr) throws -> Result) throws -> Result {
        try image.pixels.withUnsafeBufferPointer { pixels in
            var mediaPipeImage: MpImagePtr?
            try library.check("MpImageCreateFromUint8Data") {
                library.imageCreateFromUint8Data(
                    Int32(kMpImageFormatSrgb.rawValue), Int32(image.width), Int32(image.height), pixels.baseAddress,
                    Int32(pixels.count), &mediaPipeImage, $0)
            }
            guard let mediaPipeImage else { throw PoseEstimationError.noResult(function: "MpImageCreateFromUint8Data") }
            defer { library.imageFree(mediaPipeImage) }
            return try body(mediaPipeImage)
        }
    }

    /// Copies the normalized landmarks out of a result the library filled.
    private static func landmarks(of result: MpPoseLandmarkerResult) -> [[BlazePoseLandmark]] {
        guard let poses = result.pose_landmarks else { return [] }
        return UnsafeBufferPointer(start: poses, count: Int(result.pose_landmarks_count)).map { pose in
            guard let landmarks = pose.landmarks else { return [] }
            return UnsafeBufferPointer(start: landmarks, count: Int(pose.landmarks_count)).map { landmark in
                BlazePoseLandmark(
                    x: landmark.x, y: landmark.y, z: landmark.z,
                    visibility: landmark.has_visibility ? landmark.visibility : nil,
                    presence: landmark.has_presence ? landmark.presence : nil)
            }
        }
    }
}
