import Dataset
import Foundation
import Manifest

/// One stream to predict on: a file read through the feature cache, how to read it, and the
/// annotated actions in it when montage annotations name it (the ground truth of temporal
/// evaluation).
public struct PredictionInput: Sendable {
    /// An annotated action: label and time range in seconds from the file's first frame.
    public struct Annotation: Sendable, Equatable {
        public var label: String
        public var start: Double
        /// The end, or nil for the end of the file.
        public var end: Double?

        public init(label: String, start: Double, end: Double?) {
            self.label = label
            self.start = start
            self.end = end
        }
    }

    /// The file (a video, a keypoint file, an OpenPose folder).
    public var file: URL
    /// Its format and the format's settings, as a manifest source would give them.
    public var source: DataSource
    /// The annotations of the file, in time order; empty without annotations.
    public var annotations: [Annotation]
    /// Where the input came from, for messages: the path, or the annotation file and its line.
    public var origin: String

    public init(file: URL, source: DataSource, annotations: [Annotation] = [], origin: String) {
        self.file = file
        self.source = source
        self.annotations = annotations
        self.origin = origin
    }

    /// Whether ground truth is known (the input came from montage annotations).
    public var isAnnotated: Bool { !annotations.isEmpty }
}
