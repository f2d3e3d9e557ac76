import ContentHashing
import FeatureCache
import Foundation
import Pose
import Video

/// Turns a video (or a still picture) into a ``SkeletonLayout/vision18`` pose sequence:
/// FFmpeg decodes on a thread of its own (``FramePipeline``) while MediaPipe's pose landmarker
/// runs in video mode on the calling thread, so decoding hides behind pose estimation.
///
/// Frames come in display order, upright (rotation applied), with timestamps in seconds from
/// the first displayed frame. At most ``frameRate`` frames per second are estimated: a frame is
/// skipped when it falls before the next slot of a `1 / frameRate` grid (less a quarter slot),
/// so a 60 fps video extracted at 30 fps costs half the work, while a 25 or 30 fps video keeps
/// every frame. Kept frames keep their exact times; windows are later resampled on timestamps.
/// One person is followed through the clip (``PersonTracker``: the most prominent at first, then
/// the nearest to the previous frame's choice; the frames where they are lost are recorded) and
/// the number of people found is counted; a frame without a person is (0, 0, 0) for every joint.
///
/// A file that FFmpeg cannot open or that is truncated or corrupt part way fails as a whole
/// (``ExtractionError/video(_:)`` with FFmpeg's message): its end is missing or unreliable.
///
/// The extractor is a value holding settings; each ``extract(_:progress:)`` creates its own
/// landmarker, so one extractor can serve several threads.
public struct VideoPoseExtractor: Sendable {
    /// The importer name in cache fingerprints.
    public static let importerName = "mediapipe-pose-video"
    /// Bump when the same video and settings would extract differently.
    /// 2: the duration is measured on the displayed frames, not taken from the headers; one person
    /// is followed through the clip (``PersonTracker``) instead of the largest in each frame.
    public static let version = 2

    /// The landmarker's settings (running mode is always video).
    public var options: MediaPipePoseEstimator.Options
    /// The most frames per second estimated; higher frame rates are thinned on timestamps.
    public var frameRate: Double
    /// Decoded frames held between the decoding thread and pose estimation.
    public var queueCapacity: Int

    /// Creates an extractor.
    /// - Parameters:
    ///   - options: Number of people and confidence thresholds; library and model paths (nil:
    ///     looked up by ``MediaPipeAssets``). The running mode is set to video.
    ///   - frameRate: The most frames per second to estimate (the manifest's frame rate), > 0.
    ///   - queueCapacity: Decoded frames buffered ahead of estimation (at least 1).
    public init(options: MediaPipePoseEstimator.Options = .init(), frameRate: Double, queueCapacity: Int = 8) {
        var options = options
        options.runningMode = .video
        self.options = options
        self.frameRate = frameRate
        self.queueCapacity = max(1, queueCapacity)
    }

    /// What identifies this extractor's output in the feature cache: importer and version,
    /// SHA-256 of libmediapipe.so and of the model bundle, number of poses and the three
    /// confidences. The cache adds the layout and ``frameRate``.
    /// - Throws: ``ExtractionError/pose(file:timestamp:_:)`` when the library or model is not
    ///   found (the message names `scripts/setup`), ``ExtractionError/cache(file:_:)`` when one
    ///   cannot be read.
    public func fingerprint() throws -> ImporterFingerprint {
        let libraryPath: String
        let modelPath: String
        do {
            libraryPath = try MediaPipeAssets.libraryPath(explicitPath: options.libraryPath)
            modelPath = try MediaPipeAssets.modelPath(explicitPath: options.modelPath)
        } catch let error as PoseEstimationError {
            throw ExtractionError.pose(file: "MediaPipe", timestamp: nil, error)
        }
        func digest(_ path: String) throws -> String {
            do {
                return try AssetDigests.sha256(ofFileAt: path)
            } catch let error as FeatureCacheError {
                throw ExtractionError.cache(file: path, error)
            }
        }
        return ImporterFingerprint(
            importer: Self.importerName, version: "\(Self.version)",
            settings: [
                "library_sha256": try digest(libraryPath), "model_sha256": try digest(modelPath),
                "num_poses": "\(options.numberOfPoses)",
                "min_pose_detection_confidence": "\(options.minimumPoseDetectionConfidence)",
                "min_pose_presence_confidence": "\(options.minimumPosePresenceConfidence)",
                "min_tracking_confidence": "\(options.minimumTrackingConfidence)",
            ])
    }

    /// Extracts the poses of one file.
    /// - Parameters:
    ///   - url: A video or picture FFmpeg can read.
    ///   - progress: Called after each estimated frame with the number estimated so far.
    /// - Returns: The sequence, the people per frame and the header facts.
    /// - Throws: ``ExtractionError``: ``ExtractionError/video(_:)`` with FFmpeg's message,
    ///   ``ExtractionError/pose(file:timestamp:_:)`` with MediaPipe's, or
    ///   ``ExtractionError/noFrames(file:)``.
    public func extract(_ url: URL, progress: (Int) -> Void = { _ in }) throws -> VideoPoseExtraction {
        let pipeline = FramePipeline(url: url, capacity: queueCapacity)
        defer { pipeline.close() }
        let info: VideoInfo
        do { info = try pipeline.info() } catch { throw ExtractionError.video(error) }
        let estimator: MediaPipePoseEstimator
        do {
            estimator = try MediaPipePoseEstimator(options: options)
        } catch let error as PoseEstimationError {
            throw ExtractionError.pose(file: url.path, timestamp: nil, error)
        }
        defer { try? estimator.close() }

        var keypoints: [Float] = []
        var timestamps: [Double] = []
        var personCounts: [Int] = []
        var tracker = PersonTracker()
        var nextSlot = 0
        var lastDisplayed = 0.0
        let tolerance = 0.25
        while true {
            let frame: VideoFrame
            do {
                guard let next = try pipeline.next() else { break }
                frame = next
            } catch {
                throw ExtractionError.video(error)
            }
            lastDisplayed = frame.timestamp
            // Thin to at most `frameRate`: keep the first frame at or after slot k (less a quarter slot).
            guard frame.timestamp * frameRate >= Double(nextSlot) - tolerance else { continue }
            nextSlot = Int((frame.timestamp * frameRate + tolerance).rounded(.down)) + 1
            do {
                let image = try RGBImage(width: frame.width, height: frame.height, pixels: frame.pixels)
                let people = try estimator.estimatePeople(in: image, at: frame.timestamp)
                keypoints += (tracker.select(among: people, at: frame.timestamp) ?? .undetected).frameValues
                personCounts.append(people.count)
            } catch let error as PoseEstimationError {
                throw ExtractionError.pose(file: url.path, timestamp: frame.timestamp, error)
            }
            timestamps.append(frame.timestamp)
            progress(timestamps.count)
        }
        guard let last = timestamps.last else { throw ExtractionError.noFrames(file: url.path) }
        let nominal = info.nominalFrameRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let sequenceRate = min(nominal ?? frameRate, frameRate)
        let layout = SkeletonLayout.vision18
        let sequence = PoseSequence(
            keypoints: keypoints, timestamps: timestamps, channelCount: layout.channelCount, jointCount: layout.jointCount,
            frameRate: sequenceRate)
        return VideoPoseExtraction(
            sequence: sequence, personCounts: personCounts, nominalFrameRate: nominal,
            duration: Self.displayedDuration(lastFrame: max(last, lastDisplayed), nominalFrameRate: nominal, frameRate: sequenceRate),
            width: info.displayWidth, height: info.displayHeight, rotation: info.rotation, codec: info.codecName,
            personLosses: tracker.losses.map(\.timestamp))
    }

    /// How long the displayed frames last: the last decoded frame's time from the first, plus one
    /// frame (`1 / nominalFrameRate`, else `1 / frameRate`), in seconds.
    ///
    /// Not the headers' duration: a container's duration may count from time 0 rather than from
    /// the first frame (a video whose first frame is shown at 1.0 s and whose last at 3.96 s
    /// states 4.0 s in MP4 and Matroska), and a truncated file states more than it holds, while
    /// sample ranges are measured from the first displayed frame.
    /// - Parameters:
    ///   - lastFrame: The last decoded frame's timestamp, seconds from the first displayed frame.
    ///   - nominalFrameRate: The stream's frame rate, nil when unknown.
    ///   - frameRate: The sequence's frame rate, used when the stream states none.
    static func displayedDuration(lastFrame: Double, nominalFrameRate: Double?, frameRate: Double) -> Double {
        lastFrame + 1 / (nominalFrameRate ?? frameRate)
    }

    /// The poses of `url` from `cache`, extracting and storing them on a miss.
    ///
    /// The key is the SHA-256 of the file's bytes with ``fingerprint()`` (plus layout and
    /// ``frameRate``); the entry is written atomically, so a killed extraction leaves no entry,
    /// and two processes extracting the same file both store a complete, identical entry.
    /// - Parameters:
    ///   - url: The video or picture.
    ///   - cache: The feature cache.
    ///   - fingerprint: ``fingerprint()``, computed once by the caller for many files.
    ///   - progress: Called after each estimated frame (only on a miss).
    /// - Returns: The extraction, the cache entry's key, the file's SHA-256, and whether it was a hit.
    /// - Throws: ``ExtractionError``.
    public func cachedExtraction(
        of url: URL, cache: FeatureCache, fingerprint: ImporterFingerprint, progress: (Int) -> Void = { _ in }
    ) throws -> (extraction: VideoPoseExtraction, key: CacheKey, sourceHash: ContentHash, hit: Bool) {
        do {
            let sourceHash = try ContentHash.sha256(ofFileAt: url)
            let result = try cache.entry(
                sourcePath: url.path, sourceHash: sourceHash, fingerprint: fingerprint, layoutName: SkeletonLayout.vision18.name,
                frameRate: frameRate
            ) { try extract(url, progress: progress).cacheContents(path: url.path) }
            guard let extraction = VideoPoseExtraction(entry: result.entry) else {
                throw ExtractionError.cache(
                    file: url.path,
                    .malformedEntry(file: cache.url(for: result.entry.key).path, object: "/sequences", reason: "not one video sequence with person counts"))
            }
            return (extraction, result.entry.key, sourceHash, result.hit)
        } catch let error as FeatureCacheError {
            throw ExtractionError.cache(file: url.path, error)
        }
    }
}
