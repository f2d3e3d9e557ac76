import Foundation
import JSON5
import ManifestSchema
import Pose

extension DataSource: ManifestSection {
    /// The fewest sources a list of them (training, validation or test) may hold.
    static let minimumListCount = 1
    /// The allowed width and height of OpenPose's frames, in pixels.
    private static let pixelBounds = NumericBounds.positive

    /// A placeholder source: `format` and `path` are required, and `frameRate` defaults to
    /// `features.frameRate`, which a reader passes in.
    package static var defaults: DataSource {
        DataSource(format: .uea, path: URL(fileURLWithPath: "/", isDirectory: true), frameRate: FeatureConfiguration.defaults.frameRate)
    }

    package static var settings: [Setting<DataSource>] {
        [
            Setting("format", \.format, .choice(Format.self), "the file format (below)").required(),
            Setting("path", \.path, .path, "the file or folder, or a glob pattern of them (`Skeleton/*.mat`); it must exist or match")
                .required().readBySection(),
            Setting("label", \.label, .optional(.nonEmptyString),
                    "the label of every sequence of the source; a `csv` file needs one, `uea` files and montage annotations carry their own"),
            Setting("frameRate", \.frameRate, .number(WindowConfiguration.frameRateBounds),
                    "the recording's frames per second; for `video` and `montage`, the most frames per second pose is estimated at")
                .defaultText("`features.frameRate`"),
            Setting("imageSize", \.imageSize, .optional(imageSizeKind),
                    "`[width, height]` in pixels of the frames OpenPose ran on; `openpose` only, and required there"),
            Setting("pattern", \.pattern, .optional(patternKind),
                    "a regular expression matching each file's whole name, whose named groups are fields: `label` labels the sample, "
                        + "others (`subject`, `trial`, ...) are what `dataset.test.where` and `dataset.validation.groupBy` use"),
            Setting("variable", \.variable, .optional(.nonEmptyString),
                    "the MAT-file variable holding each recording's keypoints (`d_skel` for UTD-MHAD); `mat` only, and required there"),
            Setting("axes", \.axes, .optional(.list(axisKind, minimumCount: 3, distinct: "axis")),
                    "the variable's axes in MATLAB's dimension order, a permutation of `T` (frames), `C` (channels), `J` (joints); "
                        + "`mat` only. UTD-MHAD's `d_skel` (20 × 3 × frames) is `[\"J\", \"C\", \"T\"]`")
                .defaultText("`[\"T\", \"C\", \"J\"]`"),
        ]
    }

    /// A regular expression with named groups, written as its text.
    private static var patternKind: SettingKind<FileNamePattern> {
        SettingKind(
            type: "string", bounds: "a regular expression with named groups", describe: { JSONStringEscaping.quoted($0.source) },
            read: { node in
                guard let text = node.nonEmptyString() else { return nil }
                do {
                    return try FileNamePattern(text)
                } catch {
                    node.report("\(error)")
                    return nil
                }
            },
            encode: { pattern, container, key in try container.encode(pattern.source, forKey: key) },
            decode: { container, key in try container.decodeIfPresent(String.self, forKey: key).map(FileNamePattern.init) })
    }

    /// One axis of a MAT-file variable: `"T"`, `"C"` or `"J"`.
    private static var axisKind: SettingKind<KeypointAxis> {
        SettingKind(
            type: "axes", bounds: "one of `T`, `C`, `J`", describe: { JSONStringEscaping.quoted($0.rawValue) },
            read: { $0.choice(KeypointAxis.self) })
    }

    /// `[width, height]` in pixels.
    private static var imageSizeKind: SettingKind<ImageSize> {
        SettingKind(
            type: "list of 2 integers", bounds: "each \(pixelBounds.referenceText)", describe: { "[\($0.width), \($0.height)]" },
            read: imageSize(from:),
            encode: { size, container, key in try container.encode([size.width, size.height], forKey: key) },
            decode: { container, key in
                guard let size = try container.decodeIfPresent([Int].self, forKey: key) else { return nil }
                guard size.count == 2 else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected [width, height]")
                }
                return ImageSize(width: size[0], height: size[1])
            })
    }

    /// Reads a `{ format, path, label, frameRate, imageSize }` object, checking that the path
    /// exists and that labels and sizes are stated where the format needs them.
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        var initial = Self.defaults
        initial.frameRate = defaultFrameRate
        let reading = Self.read(object, startingFrom: initial)
        let pathNode = reading.node(\.path)
        let item = pathNode.flatMap(Self.existingItemOrGlob)
        guard reading.outcome(\.format) == .valid, let pathNode, let item, reading.outcome(\.label) != .invalid,
            reading.outcome(\.imageSize) != .invalid, reading.outcome(\.pattern) != .invalid,
            reading.outcome(\.variable) != .invalid, reading.outcome(\.axes) != .invalid
        else { return nil }
        let format = reading.value.format
        let labelNode = reading.node(\.label)
        // A label group in the file-name pattern labels each file, as `label` would.
        let label = reading.value.label ?? (reading.value.pattern?.providesLabel == true ? "" : nil)
        if let labelNode, reading.value.pattern?.providesLabel == true {
            labelNode.report(
                "contradictory values: \(reading.path(\.pattern)) takes each file's label from its name (group 'label'), "
                    + "so the source takes no \(reading.key(\.label))")
            return nil
        }
        if let patternNode = reading.node(\.pattern), format == .uea || format == .montage {
            patternNode.report(
                "\(reading.key(\.pattern)) does not apply to \(reading.key(\.format)) '\(format.rawValue)', whose files carry their own labels")
            return nil
        }
        let formatKey = reading.key(\.format)
        if let imageSizeNode = reading.node(\.imageSize), format != .openpose {
            imageSizeNode.report(
                "\(reading.key(\.imageSize)) applies only to \(formatKey) '\(Format.openpose.rawValue)' (pixel coordinates), not '\(format.rawValue)'")
            return nil
        }

        for (key, node) in [(reading.key(\.variable), reading.node(\.variable)), (reading.key(\.axes), reading.node(\.axes))] {
            if let node, format != .mat {
                node.report("\(key) applies only to \(formatKey) '\(Format.mat.rawValue)' (MATLAB files), not '\(format.rawValue)'")
                return nil
            }
        }

        switch format {
        case .uea where item.isDirectory:
            pathNode.report("expected a .ts file for format 'uea', found a directory")
            return nil
        case .uea where labelNode != nil:
            labelNode?.report(
                "contradictory values: a 'uea' file carries its own labels, so \(reading.path(\.format)) 'uea' takes no \(reading.key(\.label))")
            return nil
        case .csv where !item.isDirectory && label == nil:
            object.reportMissing(
                reading.key(\.label), "a csv file needs the label of its sequences (only a folder can take labels from its subfolder names)")
            return nil
        case .mat where !item.isDirectory && label == nil:
            object.reportMissing(
                reading.key(\.label), "a mat file needs the label of its sequence (only a folder can take labels from its subfolder names)")
            return nil
        case .mat where reading.value.variable == nil:
            object.reportMissing(reading.key(\.variable), "name the MAT-file variable that holds the keypoints (for UTD-MHAD, 'd_skel')")
            return nil
        case .montage where item.isDirectory:
            pathNode.report("expected a montage annotation file (.json or .csv), found a directory")
            return nil
        case .montage where !["json", "csv"].contains(item.url.pathExtension.lowercased()):
            pathNode.report("expected a montage annotation file ending in .json or .csv, found '\(item.url.lastPathComponent)'")
            return nil
        case .montage where labelNode != nil:
            labelNode?.report(
                "contradictory values: montage annotations carry their own labels, so \(formatKey) 'montage' takes no \(reading.key(\.label))")
            return nil
        case .openpose where !item.isDirectory:
            pathNode.report("expected a folder of OpenPose per-frame JSON files (or label folders of them), found a file")
            return nil
        case .openpose where reading.value.imageSize == nil:
            object.reportMissing(reading.key(\.imageSize), "OpenPose keypoints are in pixels: give the frame size [width, height]")
            return nil
        default:
            self = reading.value
            path = item.url
        }
    }

    /// The resolved path of an existing file or folder, or of a glob pattern that matches at least
    /// one (then `isDirectory` says whether the first match is a folder); `nil` after a report.
    private static func existingItemOrGlob(_ node: ManifestNode) -> (url: URL, isDirectory: Bool)? {
        guard let url = node.resolvedPath() else { return nil }
        guard isGlob(url.path) else {
            guard FileManager.default.fileExists(atPath: url.path) || missingDataHint(url.path).isEmpty else {
                node.report("missing file: no file or directory at \(EchoedText.shortened(url.path, maximumLength: EchoedText.maximumPathLength))" + missingDataHint(url.path))
                return nil
            }
            return node.existingItem()
        }
        let matches = GlobPattern.matches(of: url.path)
        guard let first = matches.first else {
            node.report("missing file: nothing matches the pattern \(url.path)" + missingDataHint(url.path))
            return nil
        }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory)
        return (url, isDirectory.boolValue)
    }

    /// Where to get a data set no package registry has, for a missing path that names it
    /// (UTD-MHAD); empty for other paths.
    static func missingDataHint(_ path: String) -> String {
        guard path.contains("utd-mhad") else { return "" }
        return "; UTD-MHAD is on no package registry: scripts/setup copies it from $ACTIONLAB_UTD_MHAD or ../shared/data/utd-mhad, "
            + "or download the skeleton part (Skeleton.zip) from https://personal.utdallas.edu/~kehtar/UTD-MHAD.html and unzip it "
            + "into data/utd-mhad/ (README, 'Data')"
    }

    /// Reads `[width, height]` in pixels, both within ``pixelBounds``.
    private static func imageSize(from node: ManifestNode) -> ImageSize? {
        guard let values = node.array({ $0.integer(pixelBounds) }) else { return nil }
        guard values.count == 2 else {
            node.report("expected [width, height] in pixels, found \(values.count) element\(values.count == 1 ? "" : "s")")
            return nil
        }
        return ImageSize(width: values[0], height: values[1])
    }

    /// Reports at `node` every source of `dataset.sources` whose `pattern` has no group named
    /// `field`, for keys that split by a file-name field (`dataset.test.where`,
    /// `dataset.validation.groupBy`).
    static func reportSourcesWithout(field: String, in trainingSources: [DataSource], at node: ManifestNode) {
        for (index, source) in trainingSources.enumerated() where !(source.pattern?.fieldNames.contains(field) ?? false) {
            node.report(
                "dataset.sources[\(index)] gives no field '\(field)': its files need a `pattern` with a group (?<\(field)>...)"
                    + (source.pattern.map { " (its pattern gives \($0.fieldNames.joined(separator: ", ")))" } ?? ""))
        }
    }

    /// Reads a list of at least ``minimumListCount`` sources.
    static func list(from node: ManifestNode, defaultFrameRate: Double) -> [DataSource]? {
        node.array(minimumCount: minimumListCount) { element in
            element.object { DataSource(reading: $0, defaultFrameRate: defaultFrameRate) }
        }
    }
}

extension DataSource: Codable {
    /// Manifest form: the path as a plain absolute path, the image size as `[width, height]`.
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
