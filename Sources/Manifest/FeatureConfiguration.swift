import Foundation
import NeuralNetwork
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
    /// pipelined as for one), and keypoint files imported; nil for the cores this process may
    /// use, at most Slurm's `SLURM_CPUS_PER_TASK` (``extractionWorkers``). Not part of any cache
    /// key or trial id: the results are the same for every value.
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

    /// ``workers``, else the cores this process may run on (``availableCores(environment:)``).
    public var extractionWorkers: Int {
        workers ?? Self.availableCores()
    }

    /// The cores a process may keep busy: ``ComputeThreads/availableProcessors()`` (the machine's
    /// processors within the affinity mask that `taskset` and Slurm's CPU binding set and the
    /// cgroup CPU quota), at most the CPUs Slurm allotted the task when it says so.
    ///
    /// A Slurm cluster without CPU binding (`TaskPlugin=task/none`, `ProctrackType=proctrack/linuxproc`)
    /// lets a job see every core of its node, so an extraction shard submitted with
    /// `--cpus-per-task=2` would start a landmarker per core of the node and crowd the other jobs
    /// there. Slurm exports the allotment as `SLURM_CPUS_PER_TASK` (set when `--cpus-per-task`
    /// is given, as ActionLab's job scripts always do).
    /// - Parameter environment: The process environment; a value that is not a positive integer
    ///   is ignored.
    /// - Returns: At least 1.
    public static func availableCores(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        let cores = ComputeThreads.availableProcessors()
        guard let text = environment["SLURM_CPUS_PER_TASK"], let allotted = Int(text), allotted > 0 else { return cores }
        return min(cores, allotted)
    }
}
