import Foundation

/// One place that samples come from: a UEA/UCR `.ts` file, or a keypoint CSV file or folder.
public struct DataSource: Sendable, Hashable, Codable {
    /// The file format of a source.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// A UEA/UCR time-series archive `.ts` file, whose labels are inside the file.
        case uea
        /// A keypoint CSV file, or a folder of them.
        case csv
    }

    /// The file format.
    public var format: Format
    /// The absolute URL of the file or folder.
    public var path: URL
    /// The label of every sequence from this source; `nil` when labels come from the file
    /// (`uea`) or from subfolder names (a `csv` folder in Create ML's labeled-directories layout).
    public var label: String?
    /// The sampling rate of the recording, in frames per second.
    public var frameRate: Double

    /// Creates a source.
    public init(format: Format, path: URL, label: String? = nil, frameRate: Double) {
        self.format = format
        self.path = path
        self.label = label
        self.frameRate = frameRate
    }
}

extension DataSource {
    /// Reads a `{ format, path, label, frameRate }` object, checking that the path exists and
    /// that labels are stated where the format needs them.
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        let format = object.required("format")?.choice(Format.self)
        let pathNode = object.required("path")
        let item = pathNode?.existingItem()
        let labelNode = object.member("label")
        let label = labelNode?.nonEmptyString()
        var frameRate = defaultFrameRate
        object.read("frameRate", into: &frameRate) { $0.double(.positive) }
        guard let format, let pathNode, let item, labelNode == nil || label != nil else { return nil }

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
        default:
            self.init(format: format, path: item.url, label: label, frameRate: frameRate)
        }
    }

    /// Reads a non-empty array of sources.
    static func list(from node: ManifestNode, defaultFrameRate: Double) -> [DataSource]? {
        node.array(minimumCount: 1) { element in
            element.object { DataSource(reading: $0, defaultFrameRate: defaultFrameRate) }
        }
    }
}
