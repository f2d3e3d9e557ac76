import Foundation
import Pose
import Randomness

/// A named sequence of augmentation steps bound to a skeleton layout, applied to training
/// windows each epoch.
///
/// Geometric steps work on body pose in image coordinates (`x`, `y`, `confidence`) and on 3-D
/// skeletons (`x`, `y`, `z` in metres, `y` up); see ``AugmentationStep``. On image pose the
/// steps draw exactly the numbers they always drew, so image-pose results do not depend on the
/// 3-D support.
///
/// Randomness: window `index` in epoch `epoch` of the run with seed `seed` draws from
/// `SeededGenerator(seed:purpose: "augmentation", epoch:index:)`, so a window's augmentation
/// depends only on those three numbers, never on batch order or threads.
public struct AugmentationPipeline: Sendable {
    /// The pipeline's name (`none`, `flip`, `full`, or one a manifest defines).
    public let name: String
    /// The steps, applied in order.
    public let steps: [AugmentationStep]
    /// The layout of the windows.
    public let layout: SkeletonLayout

    private let xChannel: Int?
    private let yChannel: Int?
    /// The `x`, `y`, `z` channels of a 3-D skeleton (`SkeletonLayout.isSkeleton3D`), else nil.
    private let spatialChannels: (x: Int, y: Int, z: Int)?
    private let coordinateChannels: [Int]

    /// Binds `steps` to `layout`.
    /// - Throws: `AugmentationError.unsupportedLayout` if a geometric step meets a layout that is
    ///   neither image pose nor a 3-D skeleton, or a flip meets one without mirror pairs.
    public init(name: String, steps: [AugmentationStep], layout: SkeletonLayout) throws {
        self.name = name
        self.steps = steps
        self.layout = layout
        xChannel = layout.isImagePose ? layout.channels.firstIndex(of: "x") : nil
        yChannel = layout.isImagePose ? layout.channels.firstIndex(of: "y") : nil
        if layout.isSkeleton3D, let x = layout.channels.firstIndex(of: "x"), let y = layout.channels.firstIndex(of: "y"),
           let z = layout.channels.firstIndex(of: "z") {
            spatialChannels = (x, y, z)
        } else {
            spatialChannels = nil
        }
        let hasCoordinates = (xChannel != nil && yChannel != nil) || spatialChannels != nil
        coordinateChannels = layout.channels.indices.filter { layout.channels[$0] != "confidence" }
        for step in steps {
            if step.needsSkeletonCoordinates && !hasCoordinates {
                throw AugmentationError.unsupportedLayout(
                    pipeline: name, step: step.kind, layout: layout.name,
                    reason: "it is neither body pose in image coordinates (channels 'x', 'y' and 'confidence') "
                        + "nor a 3-D skeleton (channels 'x', 'y' and 'z', and edges)")
            }
            if case .horizontalFlip = step, layout.mirrorPairs.isEmpty {
                throw AugmentationError.unsupportedLayout(
                    pipeline: name, step: step.kind, layout: layout.name, reason: "it has no mirror pairs")
            }
        }
    }

    /// Whether the pipeline changes anything.
    public var isIdentity: Bool { steps.isEmpty }

    /// Augments one window in place.
    /// - Parameters:
    ///   - window: `[T, C, J]` values of one window, `C` and `J` from the layout.
    ///   - seed: The run's seed.
    ///   - epoch: The epoch (1-based).
    ///   - index: The window's index in the training set.
    public func apply(to window: inout [Float], seed: Int, epoch: Int, index: Int) {
        guard !steps.isEmpty else { return }
        var generator = SeededGenerator(seed: UInt64(seed), purpose: "augmentation", epoch: epoch, index: index)
        apply(to: &window, using: &generator)
    }

    /// Augments one window in place, drawing from `generator`.
    public func apply(to window: inout [Float], using generator: inout SeededGenerator) {
        var view = WindowView(values: window, channelCount: layout.channelCount, jointCount: layout.jointCount,
                              zerosMarkUndetected: layout.marksUndetectedJointsWithZeros)
        for step in steps { apply(step, to: &view, using: &generator) }
        window = view.values
    }

    private func apply(_ step: AugmentationStep, to view: inout WindowView, using generator: inout SeededGenerator) {
        switch step {
        case let .horizontalFlip(probability):
            guard Double(generator.nextUniform()) < probability else { return }
            if spatialChannels != nil {
                affine3D(&view) { dx, dy, dz in (-dx, dy, dz) }
                view.swapJoints(layout.mirrorPairs)
                return
            }
            guard let x = xChannel else { return }
            view.transformDetected { values, base, _ in values[base + x] = 1 - values[base + x] }
            view.swapJoints(layout.mirrorPairs)
        case let .rotation(degrees):
            let angle = uniform(-degrees, degrees, &generator) * Double.pi / 180
            let (cosine, sine) = (Float(cos(angle)), Float(sin(angle)))
            if spatialChannels != nil {
                // About the vertical axis y: x' = cos·x + sin·z, z' = −sin·x + cos·z.
                affine3D(&view) { dx, dy, dz in (cosine * dx + sine * dz, dy, -sine * dx + cosine * dz) }
                return
            }
            affine(&view) { dx, dy in (cosine * dx - sine * dy, sine * dx + cosine * dy) }
        case let .scale(minimum, maximum):
            let factor = Float(uniform(minimum, maximum, &generator))
            if spatialChannels != nil {
                affine3D(&view) { dx, dy, dz in (factor * dx, factor * dy, factor * dz) }
            } else if xChannel != nil && yChannel != nil {
                affine(&view) { dx, dy in (factor * dx, factor * dy) }
            } else {
                // Sensor channels: scale the magnitudes (Um et al., ICMI 2017, "scaling").
                let channels = coordinateChannels
                view.transformDetected { values, base, jointCount in
                    for channel in channels { values[base + channel * jointCount] *= factor }
                }
            }
        case let .translation(maximum):
            if spatialChannels != nil {
                let shift = (0..<3).map { _ in Float(uniform(-maximum, maximum, &generator)) }
                affine3D(&view) { dx, dy, dz in (dx + shift[0], dy + shift[1], dz + shift[2]) }
                return
            }
            let (shiftX, shiftY) = (Float(uniform(-maximum, maximum, &generator)), Float(uniform(-maximum, maximum, &generator)))
            affine(&view) { dx, dy in (dx + shiftX, dy + shiftY) }
        case let .shear(maximum):
            if spatialChannels != nil {
                let s = (0..<6).map { _ in Float(uniform(-maximum, maximum, &generator)) }
                affine3D(&view) { dx, dy, dz in
                    (dx + s[0] * dy + s[1] * dz, s[2] * dx + dy + s[3] * dz, s[4] * dx + s[5] * dy + dz)
                }
                return
            }
            let (a, b) = (Float(uniform(-maximum, maximum, &generator)), Float(uniform(-maximum, maximum, &generator)))
            affine(&view) { dx, dy in (dx + a * dy, dy + b * dx) }
        case let .jitter(standardDeviation):
            let channels = coordinateChannels
            let sigma = Float(standardDeviation)
            view.transformDetected { values, base, jointCount in
                for channel in channels { values[base + channel * jointCount] += generator.nextNormal(mean: 0, standardDeviation: sigma) }
            }
        case let .timeInterpolation(minimumSpeed, maximumSpeed):
            view.retime(speed: uniform(minimumSpeed, maximumSpeed, &generator))
        case let .frameDrop(probability):
            for frame in 0..<view.frameCount where Double(generator.nextUniform()) < probability {
                view.clear(frame: frame)
            }
        case let .jointDropout(probability):
            for frame in 0..<view.frameCount {
                for joint in 0..<view.jointCount where Double(generator.nextUniform()) < probability {
                    view.clear(frame: frame, joint: joint)
                }
            }
        }
    }

    /// Applies `transform` to every detected joint's offset from the skeleton's centre.
    private func affine(_ view: inout WindowView, _ transform: (Float, Float) -> (Float, Float)) {
        guard let x = xChannel, let y = yChannel, let centre = view.centre(of: [x, y]) else { return }
        let (cx, cy) = (centre[0], centre[1])
        view.transformDetected { values, base, jointCount in
            let (dx, dy) = transform(values[base + x * jointCount] - cx, values[base + y * jointCount] - cy)
            values[base + x * jointCount] = cx + dx
            values[base + y * jointCount] = cy + dy
        }
    }

    /// Applies `transform` to every detected joint's offset from the centre of a 3-D skeleton
    /// (the mean `x`, `y`, `z` of the window's detected joints).
    private func affine3D(_ view: inout WindowView, _ transform: (Float, Float, Float) -> (Float, Float, Float)) {
        guard let (x, y, z) = spatialChannels, let centre = view.centre(of: [x, y, z]) else { return }
        let (cx, cy, cz) = (centre[0], centre[1], centre[2])
        view.transformDetected { values, base, jointCount in
            let (dx, dy, dz) = transform(values[base + x * jointCount] - cx, values[base + y * jointCount] - cy, values[base + z * jointCount] - cz)
            values[base + x * jointCount] = cx + dx
            values[base + y * jointCount] = cy + dy
            values[base + z * jointCount] = cz + dz
        }
    }

    private func uniform(_ lower: Double, _ upper: Double, _ generator: inout SeededGenerator) -> Double {
        lower + (upper - lower) * Double(generator.nextUniform())
    }
}

/// A pipeline cannot work on the manifest's layout.
public enum AugmentationError: Error, Equatable, CustomStringConvertible {
    /// A step needs something the layout does not have.
    case unsupportedLayout(pipeline: String, step: String, layout: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedLayout(pipeline, step, layout, reason):
            return "augmentation '\(pipeline)': step '\(step)' cannot be applied to layout '\(layout)': \(reason)"
        }
    }
}
