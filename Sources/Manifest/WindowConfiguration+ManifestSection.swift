import ManifestSchema

extension WindowConfiguration: ManifestSection {
    /// Create ML's default action duration at the default feature frame rate.
    package static var defaults: WindowConfiguration {
        let frameRate = FeatureConfiguration.defaults.frameRate
        return WindowConfiguration(size: Int((defaultActionDuration * frameRate).rounded()), frameRate: frameRate)
    }

    package static var settings: [Setting<WindowConfiguration>] {
        [
            Setting("frameRate", \.frameRate, .number(WindowConfiguration.frameRateBounds), "windows are built at this rate; other rates are resampled on timestamps")
                .defaultText("`features.frameRate`"),
            .derived("duration", \.actionDuration, .number(.positive),
                     "action duration in seconds; give `duration` or `size` (or both, if they agree); "
                        + "at most \(WindowConfiguration.maximumSize) frames at the windows' frame rate"),
            Setting("size", \.size, .integer(.atLeast(1)), "window size in frames, at most \(WindowConfiguration.maximumSize)").defaultText("duration × frame rate"),
            Setting("stride", \.stride, .integer(.atLeast(1)), "frames between window starts").defaultText("window size"),
            Setting("padding", \.padding, .choice(Padding.self),
                    "sequences shorter than a window: `zero` (padded with (0, 0, 0) frames, as Create ML pads frames without a person) "
                        + "or `drop`"),
            Setting("sampling", \.sampling, .choice(Sampling.self),
                    "`sliding`: windows of `size` frames at `frameRate` every `stride` frames (Create ML's); `uniform`: one window per "
                        + "recording, the whole recording resampled to `size` frames (PYSKL's UniformSample), for segmented actions")
                .encoded { $0.sampling != .sliding },
        ]
    }

    /// `frames` rounded to a whole number of frames (at least 1), or nil if that is more than
    /// ``maximumSize`` (or not a number): compared as a Double, so that no frame count traps when
    /// converted to `Int`.
    static func windowSize(frames: Double) -> Int? {
        let rounded = frames.rounded()
        guard rounded <= Double(maximumSize) else { return nil }
        return max(1, Int(rounded))
    }

    /// Reads `windows`, whose frame rate defaults to `defaultFrameRate` (`features.frameRate`):
    /// the size is stated in frames, or comes from the duration, which must then be a whole
    /// number of frames, or from both if they agree.
    init(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        let reading = Self.read(object, startingFrom: WindowConfiguration(size: 1, frameRate: defaultFrameRate))
        self = reading.value
        let durationNode = reading.node(\.actionDuration)
        let duration = reading.derivedValue(\.actionDuration)
        let sizeNode = reading.node(\.size)
        let statedSize = reading.outcome(\.size) == .valid ? size : nil
        // The frames the size comes from, checked against the limit before any conversion to Int
        // (a duration of 1e18 s, or a frame rate of 5e18, is more frames than an Int holds).
        var frames = Self.defaultActionDuration * frameRate
        var framesNode = reading.node(\.frameRate) ?? object.node

        let rate = frameRate.manifestText
        switch (durationNode, duration, sizeNode, statedSize) {
        case let (_, duration?, sizeNode?, statedSize?):
            let durationFrames = duration * frameRate
            (frames, framesNode) = (Double(statedSize), sizeNode)
            if abs(durationFrames - Double(statedSize)) > Self.frameTolerance {
                sizeNode.report(
                    "contradictory values: \(reading.path(\.size)) is \(statedSize) frames, but \(reading.path(\.actionDuration)) "
                        + "\(duration.manifestText) s at \(rate) frames per second is \(durationFrames.manifestText) frames")
            }
        case let (durationNode?, duration?, nil, _):
            (frames, framesNode) = (duration * frameRate, durationNode)
            let rounded = frames.rounded()
            if rounded < 1 {
                durationNode.report("value out of range: \(duration.manifestText) s at \(rate) frames per second is less than one frame")
                frames = 1
            } else if rounded <= Double(Self.maximumSize), abs(frames - rounded) > Self.frameTolerance {
                durationNode.report(
                    "value out of range: \(duration.manifestText) s at \(rate) frames per second is \(frames.manifestText) frames, "
                        + "not a whole number; state \(reading.path(\.size)) in frames instead")
                frames = 1
            }
        case let (_, _, sizeNode?, statedSize?):
            (frames, framesNode) = (Double(statedSize), sizeNode)
        default:
            break  // Neither stated, or a stated one is invalid and already reported.
        }
        if let windowSize = Self.windowSize(frames: frames) {
            size = windowSize
        } else {
            size = 1
            framesNode.report(
                "value out of range: a window of \(frames.rounded().manifestText) frames"
                    + (frames == Double(statedSize ?? 0) ? "" : " (\(duration?.manifestText ?? Self.defaultActionDuration.manifestText) s "
                        + "at \(rate) frames per second)")
                    + " is more than \(Self.maximumSize) (\(Self.maximumSize / 30 / 60) minutes at 30 frames per second); "
                    + "windows are held in memory whole")
        }
        if reading.outcome(\.stride) != .valid { stride = size }
        if sampling == .uniform {
            for keyPath in [\WindowConfiguration.stride, \WindowConfiguration.padding] as [PartialKeyPath<WindowConfiguration>] {
                reading.node(keyPath)?.report(
                    "contradictory values: \(reading.key(keyPath)) applies only to \(reading.key(\.sampling)) 'sliding'; "
                        + "uniform sampling makes one window per recording")
            }
        }
    }
}

extension WindowConfiguration: Codable {
    /// Manifest form: size, frame rate, stride and padding (the duration follows from them).
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
