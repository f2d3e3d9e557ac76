import Foundation
import ManifestSchema
import Pose

/// One place that samples come from: a UEA/UCR `.ts` file, a keypoint CSV file or folder, videos
/// and pictures (labeled folders or files, or montage annotations), or pre-extracted keypoints
/// (OpenPose per-frame JSON folders, ST-GCN's Kinetics-skeleton JSON files, MATLAB MAT-files).
public struct DataSource: Sendable, Hashable {
    /// The file format of a source.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// A UEA/UCR time-series archive `.ts` file, whose labels are inside the file.
        case uea
        /// A keypoint CSV file, or a folder of them.
        case csv
        /// A video or picture, or a folder of them: Create ML's labeled directories
        /// (`<folder>/<label>/<file>`) or labeled files (`<folder>/squat.3.mov`).
        case video
        /// Montage annotations, a JSON or CSV file of `file_name, label, start_time, end_time`
        /// rows naming videos relative to the annotation file's folder.
        case montage
        /// OpenPose `--write_json` output: a folder of per-frame JSON files (one clip), or label
        /// folders of such clip folders. Needs ``DataSource/imageSize``.
        case openpose
        /// ST-GCN's Kinetics-skeleton JSON: a file (one clip), or a folder of them, or label
        /// folders of them.
        case kinetics
        /// MATLAB MAT-files (MAT 5 or 7.3), one recording each in the numeric variable
        /// ``DataSource/variable`` with axes ``DataSource/axes``: a file, a folder of `.mat` files
        /// with a label, or label folders of them (as `csv`).
        case mat

        /// Whether the source's keypoints are body pose in the ``SkeletonLayout/vision18`` layout.
        public var producesVision18: Bool {
            switch self {
            case .uea, .csv, .mat: false
            case .video, .montage, .openpose, .kinetics: true
            }
        }

        /// Whether the source decodes videos (so extraction can fail per file on real-world data).
        public var decodesVideo: Bool { self == .video || self == .montage }
    }

    /// The size in pixels of the frames keypoints were measured on, to normalize pixel coordinates.
    public struct ImageSize: Sendable, Hashable, Codable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// Creates a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The file format.
    public var format: Format
    /// The absolute URL of the file or folder, or a glob pattern (`Skeleton/*.mat`, POSIX
    /// `glob(3)` syntax: `*`, `?`, `[...]`) of files or folders, see ``isGlob``.
    public var path: URL
    /// The label of every sequence from this source; `nil` when labels come from the file
    /// (`uea`) or from subfolder names (a `csv` folder in Create ML's labeled-directories layout).
    public var label: String?
    /// The sampling rate of the recording, in frames per second. For `video` and `montage`
    /// sources, the most frames per second pose is extracted at (videos keep their own frame
    /// times; faster ones are thinned).
    public var frameRate: Double
    /// The frame size OpenPose ran on (`openpose` only; its JSON files are in pixels and state no size).
    public var imageSize: ImageSize?
    /// Fields taken from each file's name (label, subject, trial, ...), or nil.
    public var pattern: FileNamePattern?
    /// The name of the MAT-file variable holding the keypoints (`mat` only, and required there).
    public var variable: String?
    /// The MAT-file variable's axes in MATLAB's dimension order (`mat` only); nil means
    /// ``KeypointAxis/poseSequenceOrder``, `[T, C, J]`. UTD-MHAD's `d_skel` is `[J, C, T]`.
    public var axes: [KeypointAxis]?

    /// Creates a source.
    public init(
        format: Format, path: URL, label: String? = nil, frameRate: Double, imageSize: ImageSize? = nil,
        pattern: FileNamePattern? = nil, variable: String? = nil, axes: [KeypointAxis]? = nil
    ) {
        self.format = format
        self.path = path
        self.label = label
        self.frameRate = frameRate
        self.imageSize = imageSize
        self.pattern = pattern
        self.variable = variable
        self.axes = axes
    }

    /// Whether ``path`` is a glob pattern (it holds `*`, `?` or `[`) rather than one file or folder.
    public var isGlob: Bool { Self.isGlob(path.path) }

    /// Whether `path` holds a glob metacharacter (`*`, `?`, `[`).
    public static func isGlob(_ path: String) -> Bool { path.contains { "*?[".contains($0) } }

    /// The axes a `mat` source's variable is read with: ``axes``, else `[T, C, J]`.
    public var resolvedAxes: [KeypointAxis] { axes ?? KeypointAxis.poseSequenceOrder }
}
