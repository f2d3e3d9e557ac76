import Foundation
import Pose

/// What the keypoint arrays look like and where extracted features are cached.
public struct FeatureConfiguration: Sendable, Hashable {
    /// The manifest's default cache folder, relative to the base directory.
    public static let defaultCachePath = "data/cache"

    /// The skeleton layout of every keypoint array, `[T, C, J]`.
    public var layout: SkeletonLayout
    /// The frame rate features are extracted at, in frames per second; the default of every
    /// source's and of the windows' frame rate.
    public var frameRate: Double
    /// The absolute URL of the feature cache folder, which need not exist yet.
    public var cache: URL
    /// The pose landmarker's settings for video sources.
    public var pose: PoseEstimationConfiguration
    /// How many videos are extracted at once (each worker with its own landmarker, decoding
    /// pipelined as for one), and keypoint files imported; nil for the number of cores
    /// (``extractionWorkers``). Not part of any cache key or trial id: the results are the same
    /// for every value.
    public var workers: Int?

    /// Creates a feature configuration; the defaults are Create ML's body pose at 30 fps.
    public init(
        layout: SkeletonLayout = .vision18, frameRate: Double = 30, cache: URL, pose: PoseEstimationConfiguration = .init(),
        workers: Int? = nil
    ) {
        self.layout = layout
        self.frameRate = frameRate
        self.cache = cache
        self.pose = pose
        self.workers = workers
    }

    /// ``workers``, else the cores this process may run on.
    public var extractionWorkers: Int {
        workers ?? ProcessInfo.processInfo.activeProcessorCount
    }
}
