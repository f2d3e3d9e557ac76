import Extraction
import FeatureCache
import Foundation
import Manifest
import Pose

/// Create ML's training-data checklist for a manifest's videos (`actionlab check`): per video,
/// per label, and flags for what tends to spoil an action classifier.
///
/// Per video: nominal frame rate, duration, displayed resolution, rotation, the share of frames
/// with a person and with more than one person (from the estimator's count per frame, stored in
/// the cache entry), mean confidence per body part (is the whole body in view?), and keypoint
/// jitter. Per label: the number of samples and their total duration. Flags: mixed frame rates,
/// samples shorter than the action duration, class imbalance (largest class at least twice the
/// smallest, by sample count), videos without a person, frames without a person, videos
/// showing more than one person, videos where the followed person was lost (`PersonTracker`),
/// body parts out of view (mean confidence below ``missingPartConfidence`` in the frames with a
/// person: Create ML's checklist asks for the whole body), labels every sample of which is all zeros (no person in any of their frames, so
/// the class would be learnt from padding), and, with the automatic validation split, labels with
/// a single training recording (it stays in training, so the label gets no validation data).
/// Videos are extracted through the feature cache as `extract` does.
public struct TrainingDataCheck: Sendable {
    /// Body parts whose mean confidence is reported, as ``SkeletonLayout/vision18`` joint indices.
    public static let bodyParts: [(name: String, joints: [Int])] = [
        ("head", [0, 14, 15, 16, 17]), ("torso", [1, 2, 5, 8, 11]), ("arms", [3, 4, 6, 7]), ("legs", [9, 10, 12, 13]),
    ]
    /// Largest over smallest class size from which class imbalance is flagged.
    public static let imbalanceRatio = 2.0
    /// Mean confidence of a body part, over a video's frames with a person, below which the part
    /// is flagged as out of view (0 when it is never detected; BlazePose gives a few hundredths
    /// to joints it guesses just outside the picture).
    public static let missingPartConfidence = 0.1

    /// One video's row.
    public struct VideoRow: Sendable {
        public var path: String
        /// The labels of the samples using the video.
        public var labels: [String]
        /// The stream's nominal frame rate in frames per second; nil when unknown and for a still
        /// picture (FFmpeg gives pictures a nominal 25 fps, which is not a property of the file).
        public var frameRate: Double?
        /// Seconds.
        public var duration: Double
        public var width: Int
        public var height: Int
        /// Degrees.
        public var rotation: Int
        /// Frames estimated.
        public var frames: Int
        /// Share of frames with at least one person, in [0, 1].
        public var personShare: Double
        /// Share of frames with more than one person, in [0, 1].
        public var multiplePersonShare: Double
        /// Mean confidence per ``TrainingDataCheck/bodyParts`` entry over the frames with a person
        /// (0 without one), in [0, 1]: the number the out-of-view flag compares with
        /// ``TrainingDataCheck/missingPartConfidence``.
        public var partConfidence: [Double]
        /// Mean second difference `|p(t+1) − 2 p(t) + p(t−1)|` of joints detected in three
        /// consecutive frames, in normalized image units: motion that is not smooth. nil with too few frames.
        public var jitter: Double?
        /// Times in seconds where the followed person was lost and another followed (`VideoPoseExtraction.personLosses`).
        public var personLosses: [Double] = []
    }

    /// One label's row.
    public struct LabelRow: Sendable {
        public var label: String
        /// Samples (videos, or annotations of montages).
        public var count: Int
        /// Seconds.
        public var totalDuration: Double
    }

    public var videos: [VideoRow] = []
    public var labels: [LabelRow] = []
    /// Problems worth a look, one sentence each.
    public var flags: [String] = []
    /// Videos that could not be extracted and sources that could not be listed.
    public var failures: [String] = []
    /// The action duration the samples are compared with, in seconds.
    public var actionDuration: Double

    /// Extracts (or reads from the cache) every video of `configuration` and checks it.
    public init(configuration: ExperimentConfiguration, cache: FeatureCache) {
        actionDuration = configuration.actionDuration
        let listing = ManifestVideos(configurations: [configuration])
        failures = listing.listingFailures
        var durations: [String: (count: Int, seconds: Double)] = [:]
        var zeroSamples: [String: Int] = [:]
        var short: [String] = []
        for video in listing.videos {
            let reader = VideoSequenceReader(cache: cache, pose: video.pose, log: { _ in })
            let extraction: VideoPoseExtraction
            do {
                extraction = try reader.extraction(of: video.file, frameRate: video.frameRate).extraction
            } catch {
                failures.append("\(error)")
                continue
            }
            videos.append(Self.row(video: video, extraction: extraction))
            for sample in video.samples {
                let length = min(sample.end ?? extraction.duration, extraction.duration) - (sample.start ?? 0)
                let label = sample.label ?? ""
                durations[label, default: (0, 0)].count += 1
                durations[label, default: (0, 0)].seconds += max(0, length)
                if length < actionDuration - 1e-9 { short.append("\(sample.origin ?? video.file.lastPathComponent) (\(Self.format(length)) s)") }
                if Self.isAllZeros(extraction.sequence, from: sample.start ?? 0, to: sample.end ?? .infinity) { zeroSamples[label, default: 0] += 1 }
            }
        }
        labels = durations.keys.sorted().compactMap { label in
            durations[label].map { LabelRow(label: label, count: $0.count, totalDuration: $0.seconds) }
        }
        flags = Self.flags(videos: videos, labels: labels, short: short, actionDuration: actionDuration)
        let silent = labels.filter { zeroSamples[$0.label] == $0.count }.map(\.label)
        if !silent.isEmpty {
            flags.append("no person in any sample of \(Self.quoted(silent)): \(silent.count == 1 ? "its" : "their") windows are all zeros, "
                + "so the classifier would learn \(silent.count == 1 ? "it" : "them") from zeros")
        }
        if let single = Self.singleRecordingLabels(configuration.dataset), !single.isEmpty {
            flags.append("one recording only for \(Self.quoted(single)): the automatic validation split holds out whole recordings, "
                + "so \(single.count == 1 ? "this label gets" : "these labels get") no validation data"
                + (single.count == labels.count ? " and training runs without a validation set" : ""))
        }
    }

    /// Whether every keypoint value of `sequence`'s frames in `[start, end)` seconds is 0.
    private static func isAllZeros(_ sequence: PoseSequence, from start: Double, to end: Double) -> Bool {
        let perFrame = sequence.valuesPerFrame
        for (frame, time) in sequence.timestamps.enumerated() where time >= start && time < end {
            if sequence.keypoints[(frame * perFrame)..<((frame + 1) * perFrame)].contains(where: { $0 != 0 }) { return false }
        }
        return true
    }

    /// The labels of `dataset`'s training videos that have a single recording (a file, or with
    /// `validation.groupBy` a value of that field), when the validation split is automatic; nil otherwise.
    private static func singleRecordingLabels(_ dataset: DatasetConfiguration) -> [String]? {
        guard dataset.validation.strategy == .automatic else { return nil }
        var recordings: [String: Set<String>] = [:]
        for source in dataset.sources where source.format.decodesVideo {
            for sample in (try? source.samples()) ?? [] {
                let recording = dataset.validation.groupBy.flatMap { sample.fields[$0] } ?? sample.file.path
                recordings[sample.label ?? "", default: []].insert(recording)
            }
        }
        return recordings.filter { $0.value.count == 1 }.keys.sorted()
    }

    private static func quoted(_ labels: [String]) -> String { labels.map { "'\($0)'" }.joined(separator: ", ") }

    private static func row(video: ManifestVideos.Video, extraction: VideoPoseExtraction) -> VideoRow {
        let sequence = extraction.sequence
        let frames = sequence.frameCount
        let counts = extraction.personCounts
        let share = { (predicate: (Int) -> Bool) in frames == 0 ? 0 : Double(counts.filter(predicate).count) / Double(frames) }
        let confidence = 2
        // Frames without a person are zeros: they would pull every part's mean down by the share
        // of frames without one, and the CSV disagreed with the flag.
        let withPerson = (0..<frames).filter { $0 < counts.count && counts[$0] > 0 }
        let parts = bodyParts.map { part -> Double in
            guard !withPerson.isEmpty else { return 0 }
            var sum = 0.0
            for frame in withPerson { for joint in part.joints { sum += Double(sequence[frame, confidence, joint]) } }
            return sum / Double(withPerson.count * part.joints.count)
        }
        var jitterSum = 0.0
        var jitterCount = 0
        if frames >= 3 {
            for frame in 1..<(frames - 1) {
                for joint in 0..<sequence.jointCount
                where (frame - 1...frame + 1).allSatisfy({ sequence[$0, confidence, joint] > 0 }) {
                    let dx = Double(sequence[frame + 1, 0, joint] - 2 * sequence[frame, 0, joint] + sequence[frame - 1, 0, joint])
                    let dy = Double(sequence[frame + 1, 1, joint] - 2 * sequence[frame, 1, joint] + sequence[frame - 1, 1, joint])
                    jitterSum += (dx * dx + dy * dy).squareRoot()
                    jitterCount += 1
                }
            }
        }
        return VideoRow(
            path: video.file.path, labels: Array(Set(video.samples.compactMap(\.label))).sorted(),
            frameRate: MediaFiles.isImage(video.file) ? nil : extraction.nominalFrameRate,
            duration: extraction.duration, width: extraction.width, height: extraction.height, rotation: extraction.rotation,
            frames: frames, personShare: share { $0 > 0 }, multiplePersonShare: share { $0 > 1 }, partConfidence: parts,
            jitter: jitterCount > 0 ? jitterSum / Double(jitterCount) : nil, personLosses: extraction.personLosses)
    }

    private static func flags(videos: [VideoRow], labels: [LabelRow], short: [String], actionDuration: Double) -> [String] {
        var flags: [String] = []
        let rates = Set(videos.compactMap { $0.frameRate.map { ($0 * 100).rounded() / 100 } }).sorted()
        if rates.count > 1 {
            flags.append("mixed frame rates: \(rates.map { format($0) }.joined(separator: ", ")) fps (sequences are resampled on timestamps)")
        }
        if !short.isEmpty {
            flags.append("\(short.count) sample\(short.count == 1 ? " is" : "s are") shorter than the action duration of \(format(actionDuration)) s "
                + "(padded or dropped): \(short.joined(separator: ", "))")
        }
        if let largest = labels.max(by: { $0.count < $1.count }), let smallest = labels.min(by: { $0.count < $1.count }),
            labels.count > 1, Double(largest.count) >= imbalanceRatio * Double(smallest.count) {
            flags.append("class imbalance: '\(largest.label)' has \(largest.count) samples, '\(smallest.label)' \(smallest.count)")
        }
        let empty = videos.filter { $0.personShare == 0 }
        if !empty.isEmpty {
            flags.append("\(empty.count) video\(empty.count == 1 ? "" : "s") without a person: \(empty.map { name($0.path) }.joined(separator: ", "))")
        }
        let partial = videos.filter { $0.personShare < 1 }
        if !partial.isEmpty {
            let missing = partial.reduce(0) { $0 + Int((Double($1.frames) * (1 - $1.personShare)).rounded()) }
            let total = partial.reduce(0) { $0 + $1.frames }
            flags.append("frames without a person: \(missing) of \(total) frames in \(partial.count) video\(partial.count == 1 ? "" : "s") "
                + "(\(partial.map { "\(name($0.path)) \(percent(1 - $0.personShare))" }.joined(separator: ", "))); they are zeros")
        }
        for (index, part) in bodyParts.enumerated() {
            let unseen = videos.filter { $0.personShare > 0 && $0.partConfidence[index] < missingPartConfidence }
            guard !unseen.isEmpty else { continue }
            flags.append("\(part.name) out of view in \(unseen.count) video\(unseen.count == 1 ? "" : "s") (mean confidence below "
                + "\(format(missingPartConfidence)) where a person is seen; Create ML's checklist asks for the whole body): "
                + unseen.map { "\(name($0.path)) \(String(format: "%.2f", $0.partConfidence[index]))" }.joined(separator: ", "))
        }
        let crowded = videos.filter { $0.multiplePersonShare > 0 }
        if !crowded.isEmpty {
            flags.append("more than one person in \(crowded.count) video\(crowded.count == 1 ? "" : "s") (one is followed, the most "
                + "prominent at first): " + crowded.map { "\(name($0.path)) \(percent($0.multiplePersonShare))" }.joined(separator: ", "))
        }
        let lost = videos.filter { !$0.personLosses.isEmpty }
        if !lost.isEmpty {
            flags.append("the followed person was lost, and another followed, in \(lost.count) video\(lost.count == 1 ? "" : "s"): "
                + lost.map { row in "\(name(row.path)) at \(row.personLosses.map { format($0) + " s" }.joined(separator: ", "))" }
                    .joined(separator: "; "))
        }
        return flags
    }

    // MARK: - Output

    /// The report as Markdown: flags, labels, videos, failures.
    public func markdown() -> String {
        var text = "# Training-data check\n\nAction duration: \(Self.format(actionDuration)) s. "
            + "\(videos.count) video\(videos.count == 1 ? "" : "s"), \(labels.count) label\(labels.count == 1 ? "" : "s").\n\n## Flags\n\n"
        text += flags.isEmpty ? "None.\n" : flags.map { "- \($0)\n" }.joined()
        text += "\n## Labels\n\n| label | samples | total duration (s) |\n|---|---:|---:|\n"
        text += labels.map { "| \($0.label) | \($0.count) | \(Self.format($0.totalDuration)) |\n" }.joined()
        let partHeader = Self.bodyParts.map { "\($0.name) conf." }.joined(separator: " | ")
        text += "\n## Videos\n\n| video | labels | fps | duration (s) | size | rotation | frames | with person | > 1 person | \(partHeader) | jitter |\n"
        text += "|---|---|---:|---:|---|---:|---:|---:|---:|" + String(repeating: "---:|", count: Self.bodyParts.count) + "---:|\n"
        for row in videos {
            let cells = [
                Self.name(row.path), row.labels.joined(separator: ", "), row.frameRate.map { Self.format($0) } ?? (MediaFiles.isImage(URL(fileURLWithPath: row.path)) ? "still" : "?"),
                Self.format(row.duration), "\(row.width)x\(row.height)", "\(row.rotation)", "\(row.frames)",
                Self.percent(row.personShare), Self.percent(row.multiplePersonShare),
            ] + row.partConfidence.map { String(format: "%.2f", $0) } + [row.jitter.map { String(format: "%.4f", $0) } ?? "-"]
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        if !failures.isEmpty {
            text += "\n## Failures\n\n" + failures.map { "- \($0)\n" }.joined()
        }
        return text
    }

    /// One row per video: `path,labels,frame_rate,duration,width,height,rotation,frames,person_share,multiple_person_share,<part>_confidence...,jitter`.
    public func videosCSV() -> String {
        let header = ["path", "labels", "frame_rate", "duration", "width", "height", "rotation", "frames", "person_share", "multiple_person_share"]
            + Self.bodyParts.map { "\($0.name)_confidence" } + ["jitter"]
        let rows = videos.map { row in
            ([Self.csvField(row.path), Self.csvField(row.labels.joined(separator: ";")), row.frameRate.map { "\($0)" } ?? "",
              "\(row.duration)", "\(row.width)", "\(row.height)", "\(row.rotation)", "\(row.frames)", "\(row.personShare)",
              "\(row.multiplePersonShare)"] + row.partConfidence.map { "\($0)" } + [row.jitter.map { "\($0)" } ?? ""])
                .joined(separator: ",")
        }
        return ([header.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"
    }

    /// One row per label: `label,samples,total_duration`.
    public func labelsCSV() -> String {
        (["label,samples,total_duration"] + labels.map { "\(Self.csvField($0.label)),\($0.count),\($0.totalDuration)" })
            .joined(separator: "\n") + "\n"
    }

    private static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    private static func name(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    private static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }
}
