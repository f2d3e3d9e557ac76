import Foundation

/// One sample a source lists before anything is imported: a file (or clip folder), its label,
/// and for montage annotations the part of the video that shows the action.
public struct DatasetSample: Sendable, Hashable {
    /// The file to import or extract (a folder for OpenPose clips).
    public var file: URL
    /// The label; nil when the file carries its own labels (`uea`, `kinetics`).
    public var label: String?
    /// The action's time range in seconds from the video's first displayed frame; nil for the
    /// whole file. `end` nil means the end of the video.
    public var start: Double?
    /// See ``start``.
    public var end: Double?
    /// Where the sample was declared, for messages: an annotation's `file:line` or JSON path.
    public var origin: String?
    /// Fields taken from the file's name by the source's `pattern` (`subject: "2"`), by group
    /// name; empty without a pattern.
    public var fields: [String: String] = [:]

    /// Creates a sample.
    public init(file: URL, label: String?, start: Double? = nil, end: Double? = nil, origin: String? = nil) {
        self.file = file
        self.label = label
        self.start = start
        self.end = end
        self.origin = origin
    }
}
