extension DetectedPerson {
    /// The most prominent of the people found in one frame: the one whose detected keypoints span
    /// the largest box (``boundingBoxArea``), as Create ML's action-classifier sample app picks
    /// one person per frame. Ties go to the earlier person.
    /// - Parameter people: Everyone the estimator found in the frame.
    /// - Returns: The most prominent person, or nil when `people` is empty or nobody has a
    ///   detected keypoint.
    public static func mostProminent(among people: [DetectedPerson]) -> DetectedPerson? {
        var best: (person: DetectedPerson, area: Float)?
        for person in people where person.keypoints.contains(where: \.isDetected) {
            let area = person.boundingBoxArea
            if best.map({ area > $0.area }) ?? true { best = (person, area) }
        }
        return best?.person
    }

    /// One frame of a ``PoseSequence`` from the people found in it: the most prominent person's
    /// `[3, 18]` values, or all zeros when nobody was found (as Vision pads a frame without a person).
    /// - Parameter people: Everyone the estimator found in the frame.
    /// - Returns: `[3, 18]` values, channel-major (x, y, confidence).
    public static func frameValues(ofMostProminentAmong people: [DetectedPerson]) -> [Float] {
        (mostProminent(among: people) ?? .undetected).frameValues
    }
}
