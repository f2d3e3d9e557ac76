import AtomicFiles
import Foundation

/// Reads a folder of OpenPose per-frame JSON files (`--write_json`) as one ``SkeletonLayout/vision18`` sequence.
///
/// OpenPose writes one file per frame, `<video>_<frame number, 12 digits>_keypoints.json`, holding
/// `{"people": [{"pose_keypoints_2d": [x0, y0, c0, x1, y1, c1, ...], ...}, ...]}` with x, y in
/// pixels, origin at the top left, for the COCO (18 joints) or BODY_25 (25 joints) model
/// (``OpenPoseSkeleton``). The files give no image size, so the importer is told it
/// (``imageWidth``, ``imageHeight``: the manifest source's `imageSize`) to normalize to Vision's
/// convention: `x / width`, `1 - y / height`, clamped to [0, 1] (``importContents(from:layout:frameRate:label:readFiles:)``
/// counts the keypoints clamped, ``ClampedKeypoints``); undetected joints (confidence 0) are (0, 0, 0). With several people in a frame the most prominent one (largest keypoint box)
/// is kept, as for pose estimation; a frame without people is zeros.
///
/// Frames are ordered by the last number in their file names (else by name); frame `n` is at
/// `(n - first) / frameRate` seconds, so skipped frame numbers leave gaps in time. The sequence's
/// id and group are the folder's path; its label is the `label` argument (OpenPose files carry none).
public struct OpenPoseJSONImporter: SequenceImporter {
    public var name: String { "openpose-json" }
    /// 2: cache entries record the clamped keypoints (``ClampedKeypoints/metadata``); the
    /// sequences are those of version 1.
    public var version: Int { 2 }
    /// The width in pixels of the frames OpenPose ran on.
    public var imageWidth: Int
    /// The height in pixels of the frames OpenPose ran on.
    public var imageHeight: Int

    /// Creates an importer for frames of `imageWidth` × `imageHeight` pixels.
    public init(imageWidth: Int, imageHeight: Int) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }

    /// Reads the folder `url` of per-frame JSON files; see the type's description.
    /// - Throws: ``ImportError``: the folder unreadable or without `.json` files, a file that is not
    ///   JSON or whose `pose_keypoints_2d` is not 18 or 25 joints (naming the file and JSON path),
    ///   a layout other than vision18, no label.
    public func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence] {
        try importContents(from: url, layout: layout, frameRate: frameRate, label: label).sequences
    }

    /// Reads the folder `url` as ``importSequences(from:layout:frameRate:label:)`` does, and counts
    /// the detected keypoints of the kept people that lay outside the image and were clamped.
    ///
    /// - Parameters:
    ///   - url: The folder of per-frame JSON files.
    ///   - layout: Must be ``SkeletonLayout/vision18``.
    ///   - frameRate: Frames per second of the numbered frames.
    ///   - label: The sequence's label.
    ///   - readFiles: Bytes of some of the folder's files, by file name, already read by the
    ///     caller (to hash the folder, say); these files are not read again. Default none.
    /// - Returns: The folder's one sequence, and the clamped keypoints (the first named by its
    ///   frame file's name, frame, joint and pixel coordinates).
    /// - Throws: As ``importSequences(from:layout:frameRate:label:)``.
    public func importContents(
        from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?, readFiles: [String: Data] = [:]
    ) throws -> (sequences: [LabeledSequence], clamped: ClampedKeypoints) {
        guard layout.name == SkeletonLayout.vision18.name else {
            throw ImportError(path: url.path, line: nil, kind: .unsupported(feature: "OpenPose keypoints into layout '\(layout.name)' (only vision18)"))
        }
        guard let label else { throw ImportError(path: url.path, line: nil, kind: .missingLabel) }
        let files = try frameFiles(in: url)
        guard let firstNumber = files.first?.number else { throw ImportError(path: url.path, line: nil, kind: .noData) }
        var keypoints: [Float] = []
        var timestamps: [Double] = []
        var clamped = ClampedKeypoints()
        keypoints.reserveCapacity(files.count * layout.jointCount * layout.channelCount)
        timestamps.reserveCapacity(files.count)
        for (frame, file) in files.enumerated() {
            let people = try self.people(in: file.path, bytes: readFiles[file.name])
            let kept = OpenPoseSkeleton.keptPerson(among: people, counting: &clamped) { joint in
                "\(file.name) frame \(frame) joint \(layout.joints[joint.joint]) at "
                    + "(\(Self.pixels(joint.x, imageWidth)), \(Self.pixels(joint.y, imageHeight))) px"
            }
            keypoints += (kept ?? .undetected).frameValues
            let timestamp = Double(file.number - firstNumber) / frameRate
            if let previous = timestamps.last, timestamp <= previous {
                throw ImportError(path: file.path, line: nil, kind: .nonIncreasingTimestamp(previous: previous, found: timestamp))
            }
            if let previous = timestamps.last, let frames = PoseSequence.framesOfGapTooLong(seconds: timestamp - previous, at: frameRate) {
                throw ImportError(path: file.path, line: nil, kind: .timestampGapTooLong(previous: previous, found: timestamp, frames: frames))
            }
            timestamps.append(timestamp)
        }
        let sequence = PoseSequence(
            keypoints: keypoints, timestamps: timestamps, channelCount: layout.channelCount, jointCount: layout.jointCount,
            frameRate: frameRate)
        return ([LabeledSequence(id: url.path, label: label, group: url.path, sequence: sequence)], clamped)
    }

    /// The folder's `.json` files (name and path) with their frame numbers, in frame order.
    private func frameFiles(in folder: URL) throws -> [(name: String, path: String, number: Int)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".json") }.sorted()
        } catch {
            throw ImportError(path: folder.path, line: nil, kind: .unreadable(reason: FileErrorReason.of(error)))
        }
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        let numbered = names.enumerated().map { index, name in
            (name: name, path: prefix + name, number: Self.lastNumber(in: name) ?? index)
        }
        return numbered.sorted { ($0.number, $0.name) < ($1.number, $1.name) }
    }

    /// A normalized coordinate back in pixels, to two decimals (the file's value).
    private static func pixels(_ normalized: Double, _ size: Int) -> Double {
        (normalized * Double(size) * 100).rounded() / 100
    }

    /// The last run of decimal digits in `name` (`000000000042` in `clip_000000000042_keypoints.json`).
    static func lastNumber(in name: String) -> Int? {
        let bytes = name.utf8
        guard let last = bytes.lastIndex(where: { (48...57).contains($0) }) else { return nil }
        var first = last
        while first > bytes.startIndex, case let before = bytes.index(before: first), (48...57).contains(bytes[before]) {
            first = before
        }
        return Int(Substring(bytes[first...last]))
    }

    /// The people of one frame file, each with its detected joints outside the image.
    ///
    /// The bytes are read once (or given, `bytes`); ``OpenPoseFrameScanner`` reads the usual file,
    /// and any file it does not accept goes through ``JSONCursor`` (`JSONSerialization`), which
    /// gives the same people or today's error naming the file, line and column or JSON path.
    private func people(in file: String, bytes: Data?) throws -> [(person: DetectedPerson, outside: [(joint: Int, x: Double, y: Double)])] {
        let data = try bytes ?? JSONCursor.contents(of: URL(fileURLWithPath: file, isDirectory: false))
        let scanned = data.withUnsafeBytes { OpenPoseFrameScanner.keypointArrays(in: $0.bindMemory(to: UInt8.self)) }
        if let scanned {
            let people = scanned.compactMap(person(from:))
            if people.count == scanned.count { return people }
        }
        let root = try JSONCursor.parse(data, file: file)
        guard let people = try root.member("people") else { return [] }
        return try people.elements().compactMap { person in
            guard let flat = try person.member("pose_keypoints_2d") else { return nil }
            guard let person = self.person(from: try flat.numbers()) else {
                throw flat.mismatch("54 (COCO) or 75 (BODY_25) numbers, x, y, confidence per joint")
            }
            return person
        }
    }

    /// A person from its flat `pose_keypoints_2d` numbers (pixels), with its detected joints
    /// outside the image; nil unless they are 18 or 25 joints of x, y, confidence.
    private func person(from values: [Double]) -> (person: DetectedPerson, outside: [(joint: Int, x: Double, y: Double)])? {
        guard values.count % 3 == 0, let indices = OpenPoseSkeleton.vision18Indices(jointCount: values.count / 3) else {
            return nil
        }
        let joints = values.count / 3
        let positions = (0..<joints).map { (x: values[3 * $0] / Double(imageWidth), y: values[3 * $0 + 1] / Double(imageHeight)) }
        let confidences = (0..<joints).map { values[3 * $0 + 2] }
        return (
            OpenPoseSkeleton.person(positions: positions, confidences: confidences, indices: indices),
            OpenPoseSkeleton.outsideJoints(positions: positions, confidences: confidences, indices: indices))
    }
}
