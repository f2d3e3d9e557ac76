/// Repetition peaks of a periodic signal: local maxima of the smoothed signal that stand out
/// by their prominence and are at least 0.6 period apart.
///
/// The signal is smoothed by a centred moving average of `2 ⌊period / 10⌉ + 1` frames (fewer at
/// the ends). A peak is a frame higher than the one before and at least as high as the one
/// after. Its prominence is its height above the higher of the two lowest points between it and
/// the nearest higher frame on either side (or the signal's end), as `scipy.signal.peak_prominences`
/// defines it; peaks below ``minimumProminenceShare`` of the smoothed signal's 5–95 % range are
/// dropped. Then, from the highest down, a peak closer than ``minimumSpacingShare`` period to a
/// kept one is dropped, as `scipy.signal.find_peaks(distance:)` does.
struct SignalPeaks {
    /// Kept peaks, as frame positions (refined by a parabola through the peak and its neighbours), in time order.
    var positions: [Double]

    /// The share of the period two repetitions' peaks must be apart at least.
    static let minimumSpacingShare = 0.6
    /// The share of the signal's 5–95 % range a peak must stand out by.
    static let minimumProminenceShare = 0.25

    init(signal: [Double], period: Double) {
        let radius = Int((period / 10).rounded())
        let smoothed = signal.indices.map { time in
            let window = max(0, time - radius)...min(signal.count - 1, time + radius)
            return window.reduce(0) { $0 + signal[$1] } / Double(window.count)
        }
        let sorted = smoothed.sorted()
        let range = sorted.isEmpty ? 0 : Self.quantile(sorted, 0.95) - Self.quantile(sorted, 0.05)
        let candidates = smoothed.indices.dropFirst().dropLast().filter { time in
            smoothed[time] > smoothed[time - 1] && smoothed[time] >= smoothed[time + 1]
                && Self.prominence(of: time, in: smoothed) >= Self.minimumProminenceShare * range
        }
        var kept: [Int] = []
        for candidate in candidates.sorted(by: { (smoothed[$0], -$0) > (smoothed[$1], -$1) })
        where kept.allSatisfy({ Double(abs($0 - candidate)) >= Self.minimumSpacingShare * period }) {
            kept.append(candidate)
        }
        positions = kept.sorted().map { time in
            let (left, centre, right) = (smoothed[time - 1], smoothed[time], smoothed[time + 1])
            let curvature = left - 2 * centre + right
            return Double(time) + (curvature < 0 ? max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) : 0)
        }
    }

    /// The prominence of the peak at `peak` (scipy's definition).
    static func prominence(of peak: Int, in signal: [Double]) -> Double {
        var leftMinimum = signal[peak]
        var time = peak - 1
        while time >= 0, signal[time] <= signal[peak] {
            leftMinimum = min(leftMinimum, signal[time])
            time -= 1
        }
        var rightMinimum = signal[peak]
        time = peak + 1
        while time < signal.count, signal[time] <= signal[peak] {
            rightMinimum = min(rightMinimum, signal[time])
            time += 1
        }
        return signal[peak] - max(leftMinimum, rightMinimum)
    }

    /// The `share` quantile of `sorted` values, by linear interpolation (NumPy's default).
    static func quantile(_ sorted: [Double], _ share: Double) -> Double {
        let position = share * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = min(sorted.count - 1, below + 1)
        return sorted[below] + (position - Double(below)) * (sorted[above] - sorted[below])
    }
}
