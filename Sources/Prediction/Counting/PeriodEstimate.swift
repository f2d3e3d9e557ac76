/// The period of a signal from its normalized square difference function (McLeod and Wyvill,
/// "A smarter way to find pitch", ICMC 2005), the autocorrelation normalized by the energy of
/// the overlapping parts.
///
/// `n(τ) = 2 Σ x_t x_{t+τ} / Σ (x_t² + x_{t+τ}²)`, the sums over `t = 0 ... T − 1 − τ`, lies in
/// [−1, 1] and is 1 at the lag of an exactly periodic signal whatever the overlap. Its key
/// maxima are, as McLeod and Wyvill define them, its positive local maxima after it first
/// falls to 0 (past the lobe around lag 0), here within the lag range. The period is the
/// shortest lag at which the signal repeats clearly: the first key maximum whose value reaches
/// the minimum clarity, or else the highest one (whose value is then below it), refined by a
/// parabola through it and its two neighbours. The first clear key maximum rather than
/// McLeod's "first within 0.9 of the highest" keeps the period of an uneven rhythm (pauses of
/// different lengths between repetitions) at one repetition, where a multiple of it may by
/// chance align better.
struct PeriodEstimate {
    /// The period, in frames (fractional).
    var period: Double
    /// `n` at the chosen key maximum, in [0, 1].
    var clarity: Double

    /// The estimate for lags `lags` (in frames), or nil when `n` has no key maximum there.
    init?(signal: [Double], lags: ClosedRange<Int>, minimumClarity: Double) {
        let lower = max(1, lags.lowerBound - 1)
        let upper = min(signal.count - 1, lags.upperBound + 1)
        guard upper - lower >= 2 else { return nil }
        // n from lag 1, to find where the lobe around lag 0 ends even below the lag range.
        var nsdf = [Double](repeating: 0, count: upper + 1)
        for lag in 1...upper {
            var cross = 0.0
            var energy = 0.0
            for time in 0..<(signal.count - lag) {
                cross += signal[time] * signal[time + lag]
                energy += signal[time] * signal[time] + signal[time + lag] * signal[time + lag]
            }
            nsdf[lag] = energy > 0 ? 2 * cross / energy : 0
        }
        // Key maxima lie past the lobe around lag 0: after the first lag where n is not positive.
        guard let firstCrossing = (1...upper).first(where: { nsdf[$0] <= 0 }) else { return nil }
        let keyMaxima = ((max(lower, firstCrossing) + 1)..<upper).filter { lag in
            lags.contains(lag) && nsdf[lag] > 0 && nsdf[lag] > nsdf[lag - 1] && nsdf[lag] >= nsdf[lag + 1]
        }
        guard let chosen = keyMaxima.first(where: { nsdf[$0] >= minimumClarity }) ?? keyMaxima.max(by: { nsdf[$0] < nsdf[$1] }) else {
            return nil
        }
        let (left, centre, right) = (nsdf[chosen - 1], nsdf[chosen], nsdf[chosen + 1])
        let curvature = left - 2 * centre + right
        let offset = curvature < 0 ? 0.5 * (left - right) / curvature : 0
        period = Double(chosen) + max(-0.5, min(0.5, offset))
        clarity = centre
    }
}
