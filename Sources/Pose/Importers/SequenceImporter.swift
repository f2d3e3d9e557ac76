import Foundation

/// Reads labeled pose sequences from one file of a keypoint or sensor format.
///
/// An importer turns a file into ``LabeledSequence``s laid out by a ``SkeletonLayout``: keypoint
/// arrays of shape `[T, C, J]` (time, channel, joint) with timestamps in seconds. Importers are
/// stateless values; the feature cache keys its entries on ``name`` and ``version``, so an
/// importer whose output changes for the same input must bump ``version``.
public protocol SequenceImporter: Sendable {
    /// A stable identifier of the format, such as `uea-ts` or `keypoint-csv`.
    var name: String { get }
    /// The version of the importer's output. Bump it whenever the same file would import
    /// differently, so that cached features made by an older version are not reused.
    var version: Int { get }

    /// Reads every sequence in the file at `url`.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - layout: The skeleton layout the values map onto; its `C * J` must match the file.
    ///   - frameRate: Frames per second (greater than zero) of the recording, used for timestamps
    ///     when the file carries none and recorded as the sequences' nominal frame rate.
    ///   - label: The class label for files that do not carry one (for example the folder name in
    ///     a labeled directory); each importer documents how it combines this with labels in the file.
    /// - Returns: The file's sequences in file order.
    /// - Throws: ``ImportError`` naming the file, the 1-based line and what was expected and found.
    func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence]
}
