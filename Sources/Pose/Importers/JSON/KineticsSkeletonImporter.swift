import Foundation

/// Reads one clip of ST-GCN's Kinetics-skeleton dataset (a JSON file) as a ``SkeletonLayout/vision18`` sequence.
///
/// The format (ST-GCN, `tools/utils/openpose.py` and `feeder/feeder_kinetics.py`):
/// `{"data": [{"frame_index": 1, "skeleton": [{"pose": [x0, y0, x1, y1, ...], "score": [c0, c1, ...]}, ...]}, ...],
/// "label": "squat", "label_index": 3}`, 18 OpenPose COCO joints per skeleton (the vision18
/// order), x and y normalized to [0, 1] with the origin at the top left, score 0 for a joint not
/// detected. Coordinates become Vision's (`y = 1 - y`), clamped to [0, 1] (and counted,
/// ``ClampedKeypoints``, as OpenPose's are); of several skeletons in a frame the most prominent
/// (largest keypoint box) is kept, as for pose estimation.
///
/// Frame `frame_index = n` is at `(n - first) / frameRate` seconds (Kinetics clips were
/// extracted at 30 fps); a frame index missing between two present ones becomes a frame of zeros,
/// as a frame without a person. The label is the `label` argument when given (a manifest source's
/// `label` or folder name), else the file's `label`. Id and group are the file's path.
public struct KineticsSkeletonImporter: SequenceImporter {
    public var name: String { "kinetics-skeleton-json" }
    /// 2: cache entries record the clamped keypoints (``ClampedKeypoints/metadata``).
    public var version: Int { 2 }

    /// Creates an importer.
    public init() {}

    /// Reads the JSON file at `url`; see the type's description.
    /// - Throws: ``ImportError``: not JSON, a value of the wrong type or size (naming its JSON
    ///   path), repeated or decreasing frame indices, no frames, no label, a layout other than vision18.
    public func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence] {
        try importContents(from: url, layout: layout, frameRate: frameRate, label: label).sequences
    }

    /// Reads the file `url` as ``importSequences(from:layout:frameRate:label:)`` does, and counts
    /// the detected keypoints of the kept skeletons that lay outside [0, 1] and were clamped.
    ///
    /// - Returns: The file's one sequence, and the clamped keypoints (the first named by its
    ///   `frame_index`, joint and normalized coordinates as read).
    /// - Throws: As ``importSequences(from:layout:frameRate:label:)``.
    public func importContents(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?)
        throws -> (sequences: [LabeledSequence], clamped: ClampedKeypoints) {
        guard layout.name == SkeletonLayout.vision18.name else {
            throw ImportError(path: url.path, line: nil, kind: .unsupported(feature: "Kinetics-skeleton keypoints into layout '\(layout.name)' (only vision18)"))
        }
        let root = try JSONCursor.parse(contentsOf: url)
        guard let label = try label ?? root.member("label")?.string() else {
            throw ImportError(path: url.path, line: nil, kind: .missingLabel)
        }
        var frames: [(index: Int, values: [Float])] = []
        var clamped = ClampedKeypoints()
        for frame in try root.required("data", "an array of frames").elements() {
            let indexCursor = try frame.required("frame_index", "a whole frame number")
            let number = try indexCursor.number()
            guard number == number.rounded(), abs(number) < 1e9 else { throw indexCursor.mismatch("a whole frame number") }
            let index = Int(number)
            if let previous = frames.last?.index, index <= previous {
                throw indexCursor.mismatch("a frame index greater than the previous frame's \(previous)")
            }
            let people = try (try frame.member("skeleton")?.elements() ?? []).map(person(from:))
            let kept = OpenPoseSkeleton.keptPerson(among: people, counting: &clamped) { joint in
                "frame_index \(index) joint \(layout.joints[joint.joint]) at (\(joint.x), \(joint.y))"
            }
            frames.append((index, (kept ?? .undetected).frameValues))
        }
        guard let first = frames.first?.index, let last = frames.last?.index else {
            throw ImportError(path: url.path, line: nil, kind: .noData)
        }
        let empty = DetectedPerson.undetected.frameValues
        var values = [[Float]](repeating: empty, count: last - first + 1)
        for frame in frames { values[frame.index - first] = frame.values }
        let sequence = PoseSequence(
            keypoints: values.flatMap { $0 }, timestamps: PoseSequence.uniformTimestamps(frameCount: values.count, frameRate: frameRate),
            channelCount: layout.channelCount, jointCount: layout.jointCount, frameRate: frameRate)
        return ([LabeledSequence(id: url.path, label: label, group: url.path, sequence: sequence)], clamped)
    }

    /// One `{"pose": [...36], "score": [...18]}` skeleton, with its detected joints outside [0, 1].
    private func person(from skeleton: JSONCursor) throws -> (person: DetectedPerson, outside: [(joint: Int, x: Double, y: Double)]) {
        let jointCount = SkeletonLayout.vision18.jointCount
        let poseCursor = try skeleton.required("pose", "\(2 * jointCount) numbers")
        let pose = try poseCursor.numbers()
        guard pose.count == 2 * jointCount else { throw poseCursor.mismatch("\(2 * jointCount) numbers (x, y per joint)") }
        let scoreCursor = try skeleton.required("score", "\(jointCount) numbers")
        let scores = try scoreCursor.numbers()
        guard scores.count == jointCount else { throw scoreCursor.mismatch("\(jointCount) numbers (one per joint)") }
        let positions = (0..<jointCount).map { (x: pose[2 * $0], y: pose[2 * $0 + 1]) }
        let indices = Array(0..<jointCount)
        return (
            OpenPoseSkeleton.person(positions: positions, confidences: scores, indices: indices),
            OpenPoseSkeleton.outsideJoints(positions: positions, confidences: scores, indices: indices))
    }
}
