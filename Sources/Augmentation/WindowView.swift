import Pose

/// Index arithmetic over one `[T, C, J]` window, shared by the augmentation steps.
struct WindowView {
    var values: [Float]
    let channelCount: Int
    let jointCount: Int
    /// Whether an all-zero joint is undetected (body pose) rather than a reading (sensors).
    let zerosMarkUndetected: Bool

    var frameCount: Int { values.count / (channelCount * jointCount) }

    /// Offset of channel 0 of `joint` at `frame`; channel `c` is at `+ c * jointCount`.
    func base(frame: Int, joint: Int) -> Int { frame * channelCount * jointCount + joint }

    func isDetected(frame: Int, joint: Int) -> Bool {
        guard zerosMarkUndetected else { return true }
        let base = base(frame: frame, joint: joint)
        return (0..<channelCount).contains { values[base + $0 * jointCount] != 0 }
    }

    /// Calls `body(values, base, jointCount)` for every detected joint of every frame.
    mutating func transformDetected(_ body: (inout [Float], Int, Int) -> Void) {
        for frame in 0..<frameCount {
            for joint in 0..<jointCount where isDetected(frame: frame, joint: joint) {
                body(&values, base(frame: frame, joint: joint), jointCount)
            }
        }
    }

    /// The mean of each of `channels` (such as x and y, or x, y and z) over the detected joints of
    /// all frames, in the order given, or nil if no joint is detected. Sums are kept in Double.
    func centre(of channels: [Int]) -> [Float]? {
        var sums = [Double](repeating: 0, count: channels.count)
        var count = 0
        for frame in 0..<frameCount {
            for joint in 0..<jointCount where isDetected(frame: frame, joint: joint) {
                let base = base(frame: frame, joint: joint)
                for (k, channel) in channels.enumerated() { sums[k] += Double(values[base + channel * jointCount]) }
                count += 1
            }
        }
        guard count > 0 else { return nil }
        return sums.map { Float($0 / Double(count)) }
    }

    /// Swaps all channels of each pair's joints in every frame.
    mutating func swapJoints(_ pairs: [SkeletonLayout.JointPair]) {
        for frame in 0..<frameCount {
            for pair in pairs {
                for channel in 0..<channelCount {
                    values.swapAt(base(frame: frame, joint: pair.first) + channel * jointCount,
                                  base(frame: frame, joint: pair.second) + channel * jointCount)
                }
            }
        }
    }

    mutating func clear(frame: Int) {
        let perFrame = channelCount * jointCount
        for index in (frame * perFrame)..<((frame + 1) * perFrame) { values[index] = 0 }
    }

    mutating func clear(frame: Int, joint: Int) {
        let base = base(frame: frame, joint: joint)
        for channel in 0..<channelCount { values[base + channel * jointCount] = 0 }
    }

    /// Resamples time about the middle frame at `speed` (see `AugmentationStep.timeInterpolation`).
    /// A joint is interpolated only when it is detected in both neighbouring frames; otherwise
    /// the nearer frame's value is taken, so undetected joints never blend toward zero.
    mutating func retime(speed: Double) {
        let source = self
        let frames = frameCount
        let centre = Double(frames - 1) / 2
        for frame in 0..<frames {
            let position = centre + (Double(frame) - centre) * speed
            guard position >= 0, position <= Double(frames - 1) else {
                clear(frame: frame)
                continue
            }
            let lower = Int(position.rounded(.down))
            let upper = min(lower + 1, frames - 1)
            let weight = Float(position - Double(lower))
            for joint in 0..<jointCount {
                let target = base(frame: frame, joint: joint)
                let both = source.isDetected(frame: lower, joint: joint) && source.isDetected(frame: upper, joint: joint)
                let nearest = weight < 0.5 ? lower : upper
                for channel in 0..<channelCount {
                    let low = source.values[source.base(frame: lower, joint: joint) + channel * jointCount]
                    let high = source.values[source.base(frame: upper, joint: joint) + channel * jointCount]
                    values[target + channel * jointCount] = both
                        ? low + (high - low) * weight
                        : source.values[source.base(frame: nearest, joint: joint) + channel * jointCount]
                }
            }
        }
    }
}
