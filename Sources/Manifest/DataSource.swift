import Foundation
import ManifestSchema

/// One place that samples come from: a UEA/UCR `.ts` file, a keypoint CSV file or folder, videos
/// and pictures (labeled folders or files, or montage annotations), or pre-extracted keypoints
/// (OpenPose per-frame JSON folders, ST-GCN's Kinetics-skeleton JSON files).
public struct DataSource: Sendable, Hashable, Codable {
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

        /// Whether the source's keypoints are body pose in the ``SkeletonLayout/vision18`` layout.
        public var producesVision18: Bool {
            switch self {
            case .uea, .csv: false
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
    /// The absolute URL of the file or folder.
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

    /// Creates a source.
    public init(format: Format, path: URL, label: String? = nil, frameRate: Double, imageSize: ImageSize? = nil) {
        self.format = format
        self.path = path
        self.label = label
        self.frameRate = frameRate
        self.imageSize = imageSize
    }
}

extension DataSource {
    /// Reads a `{ format, path, label, frameRate, imageSize }` object, checking that the path
    /// exists and that labels and sizes are stated where the format needs them.
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        let format = object.required("format")?.choice(Format.self)
        let pathNode = object.required("path")
        let item = pathNode?.existingItem()
        let labelNode = object.member("label")
        let label = labelNode?.nonEmptyString()
        var frameRate = defaultFrameRate
        object.read("frameRate", into: &frameRate) { $0.double(.positive) }
        let imageSizeNode = object.member("imageSize")
        let imageSize = imageSizeNode.flatMap(Self.imageSize(from:))
        guard let format, let pathNode, let item, labelNode == nil || label != nil,
            imageSizeNode == nil || imageSize != nil
        else { return nil }
        if let imageSizeNode, format != .openpose {
            imageSizeNode.report("imageSize applies only to format 'openpose' (pixel coordinates), not '\(format.rawValue)'")
            return nil
        }

        switch format {
        case .uea where item.isDirectory:
            pathNode.report("expected a .ts file for format 'uea', found a directory")
            return nil
        case .uea where labelNode != nil:
            labelNode?.report("contradictory values: a 'uea' file carries its own labels, so \(object.path("format")) 'uea' takes no label")
            return nil
        case .csv where !item.isDirectory && label == nil:
            object.reportMissing("label", "a csv file needs the label of its sequences (only a folder can take labels from its subfolder names)")
            return nil
        case .montage where item.isDirectory:
            pathNode.report("expected a montage annotation file (.json or .csv), found a directory")
            return nil
        case .montage where !["json", "csv"].contains(item.url.pathExtension.lowercased()):
            pathNode.report("expected a montage annotation file ending in .json or .csv, found '\(item.url.lastPathComponent)'")
            return nil
        case .montage where labelNode != nil:
            labelNode?.report("contradictory values: montage annotations carry their own labels, so format 'montage' takes no label")
            return nil
        case .openpose where !item.isDirectory:
            pathNode.report("expected a folder of OpenPose per-frame JSON files (or label folders of them), found a file")
            return nil
        case .openpose where imageSize == nil:
            object.reportMissing("imageSize", "OpenPose keypoints are in pixels: give the frame size [width, height]")
            return nil
        default:
            self.init(format: format, path: item.url, label: label, frameRate: frameRate, imageSize: imageSize)
        }
    }

    /// Reads `[width, height]` in pixels, both at least 1.
    private static func imageSize(from node: ManifestNode) -> ImageSize? {
        guard let values = node.array({ $0.integer(.positive) }) else { return nil }
        guard values.count == 2 else {
            node.report("expected [width, height] in pixels, found \(values.count) element\(values.count == 1 ? "" : "s")")
            return nil
        }
        return ImageSize(width: values[0], height: values[1])
    }

    /// Reads a non-empty array of sources.
    static func list(from node: ManifestNode, defaultFrameRate: Double) -> [DataSource]? {
        node.array(minimumCount: 1) { element in
            element.object { DataSource(reading: $0, defaultFrameRate: defaultFrameRate) }
        }
    }
}
