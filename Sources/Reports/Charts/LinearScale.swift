import Foundation

/// A linear map from data values to pixels, with tick marks at "nice" round numbers.
///
/// Ticks are multiples of a step of 1, 2 or 5 × 10ⁿ chosen so that about `tickCount` of them
/// span the data (Paul Heckbert, "Nice Numbers for Graph Labels", *Graphics Gems*, 1990).
/// The domain is widened to the ticks just outside the data, then cut back to `bounds` (an
/// accuracy axis never shows 1.2), so it always covers every value given.
public struct LinearScale: Sendable, Equatable {
    /// The data interval shown, lower to upper.
    public private(set) var domain: ClosedRange<Double>
    /// Pixel coordinates of `domain.lowerBound` and `domain.upperBound` (for a vertical axis the
    /// first is the larger, since SVG's y grows downwards).
    public var range: (Double, Double)
    /// Distance between ticks, 1, 2 or 5 × 10ⁿ.
    public private(set) var step: Double

    public static func == (lhs: LinearScale, rhs: LinearScale) -> Bool {
        lhs.domain == rhs.domain && lhs.range == rhs.range && lhs.step == rhs.step
    }

    /// A scale whose domain covers `values`.
    /// - Parameters:
    ///   - values: The data; non-finite values are ignored. With no value the domain is 0...1.
    ///   - range: Pixels of the domain's lower and upper bound.
    ///   - bounds: Limits of the domain, such as `0...1` for accuracy; values outside them
    ///     still widen the domain to cover them.
    ///   - includeZero: Whether the domain must contain 0 (bar charts).
    ///   - integerSteps: Whether ticks must be whole numbers (epochs).
    ///   - extendToTicks: Whether the domain grows to the ticks around the data (`true`) or
    ///     stays exactly the data's extent with ticks inside it.
    ///   - tickCount: About how many ticks to show.
    public init(
        covering values: [Double], range: (Double, Double), bounds: ClosedRange<Double>? = nil, includeZero: Bool = false,
        integerSteps: Bool = false, extendToTicks: Bool = true, tickCount: Int = 5
    ) {
        let finite = values.filter(\.isFinite) + (includeZero ? [0] : [])
        let dataLower = finite.min() ?? 0
        let dataUpper = finite.max() ?? 1
        // Cut an interval back to `bounds`, but never inside the data.
        func bounded(_ lower: Double, _ upper: Double) -> (Double, Double) {
            guard let bounds else { return (lower, upper) }
            return (max(lower, min(bounds.lowerBound, dataLower)), min(upper, max(bounds.upperBound, dataUpper)))
        }
        var (lower, upper) = (dataLower, dataUpper)
        if lower == upper {
            let pad = lower == 0 ? 1 : abs(lower) * 0.1
            (lower, upper) = bounded(lower - pad, upper + pad)
        }
        var step = Self.niceNumber(Self.niceNumber(upper - lower, round: false) / Double(max(tickCount - 1, 1)), round: true)
        if integerSteps { step = max(1, step.rounded()) }
        if extendToTicks {
            (lower, upper) = bounded((lower / step).rounded(.down) * step, (upper / step).rounded(.up) * step)
        }
        domain = lower...upper
        self.range = range
        self.step = step
    }

    /// The pixel coordinate of `value` (extrapolated outside the domain).
    public func position(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        guard span > 0 else { return (range.0 + range.1) / 2 }
        return range.0 + (value - domain.lowerBound) / span * (range.1 - range.0)
    }

    /// Tick values: the multiples of ``step`` inside the domain, in increasing order.
    public var ticks: [Double] {
        let first = (domain.lowerBound / step - 1e-9).rounded(.up)
        let last = (domain.upperBound / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        // Multiply rather than accumulate, so 0.1 × 3 prints as 0.3, not 0.30000000000000004.
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    /// Decimals that tell ticks apart: 0 for a step of 1 or more, 1 for 0.5 or 0.2, 2 for 0.05.
    public var tickDecimals: Int {
        max(0, Int((-log10(step) - 1e-9).rounded(.up)))
    }

    /// A tick value as text with ``tickDecimals`` decimals.
    public func label(_ value: Double) -> String {
        NumberFormat.fixed(value, digits: tickDecimals)
    }

    /// The nice number near `value`: 1, 2, 5 or 10 × 10ⁿ, the closest one if `round`, else
    /// the smallest at least `value` (Heckbert 1990).
    static func niceNumber(_ value: Double, round: Bool) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let exponent = log10(value).rounded(.down)
        let power = pow(10, exponent)
        let fraction = value / power
        let nice: Double
        if round {
            nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        return nice * power
    }
}
