/// Finds people and their body joints in frames of a video or in still pictures.
///
/// An estimator may keep state between calls (MediaPipe's video mode tracks people from frame to
/// frame), so it is a reference type and frames of one video go to one estimator in display order.
public protocol PoseEstimator: AnyObject {
    /// Finds the people in one frame.
    /// - Parameters:
    ///   - image: The frame as displayed (rotation applied).
    ///   - timestamp: The frame's time in seconds from the video's first displayed frame; an
    ///     estimator that tracks across frames needs it to increase strictly from call to call.
    /// - Returns: Every person found, each with ``SkeletonLayout/vision18`` keypoints in Vision's
    ///   convention; empty when nobody is found.
    /// - Throws: ``PoseEstimationError``.
    func estimatePeople(in image: RGBImage, at timestamp: Double) throws -> [DetectedPerson]
}

extension PoseEstimator {
    /// One frame of a ``SkeletonLayout/vision18`` ``PoseSequence``: the most prominent person's
    /// keypoints, or zeros when nobody is found (see ``DetectedPerson/frameValues(ofMostProminentAmong:)``).
    /// - Parameters:
    ///   - image: The frame as displayed (rotation applied).
    ///   - timestamp: The frame's time in seconds from the video's first displayed frame.
    /// - Returns: `[3, 18]` values, channel-major: x, y (normalized, origin lower left), confidence.
    /// - Throws: ``PoseEstimationError``.
    public func estimateFrame(in image: RGBImage, at timestamp: Double) throws -> [Float] {
        DetectedPerson.frameValues(ofMostProminentAmong: try estimatePeople(in: image, at: timestamp))
    }
}
