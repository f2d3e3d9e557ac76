import Foundation
import MATLAB

/// Imports one recording from a MATLAB MAT-file (MAT 5 or MAT 7.3): one named numeric variable
/// whose three axes are time, channel and joint in a stated order.
///
/// The variable is read through libmatio (``MATFile``) as MATLAB stores it, column-major: for
/// ``axes`` `[a0, a1, a2]` and dimensions `[d0, d1, d2]`, the value at 0-based subscripts
/// `(i0, i1, i2)` is element `i0 + d0 * (i1 + d1 * i2)`, which is what MATLAB's `v(i0+1, i1+1, i2+1)`
/// returns. Each value is placed at frame `t`, channel `c`, joint `j` of a ``PoseSequence``
/// `[T, C, J]` of Float32, frame `i` at `i / frameRate` seconds. UTD-MHAD's `d_skel`
/// (`20 × 3 × T`: Kinect v1 joint, x/y/z in metres, frame) is `variable: "d_skel"`,
/// `axes: [.joint, .channel, .time]`.
///
/// The variable must have exactly three dimensions. MATLAB drops trailing singleton dimensions, so
/// a one-frame `J × C × 1` recording is saved as `J × C` and is refused as the wrong rank; action
/// recordings have many frames.
///
/// The file holds one sequence whose id and group are the file's path; the label comes from the
/// caller, as for ``KeypointCSVImporter``.
public struct MATFileImporter: SequenceImporter {
    public var name: String { "mat" }
    public var version: Int { 1 }

    /// The name of the variable to read, such as `d_skel`.
    public var variable: String
    /// The variable's axes in MATLAB's dimension order: a permutation of T, C and J.
    public var axes: [KeypointAxis]

    /// Creates an importer.
    /// - Precondition: `axes` is a permutation of T, C and J (``KeypointAxis/isPermutation(_:)``).
    public init(variable: String, axes: [KeypointAxis] = KeypointAxis.poseSequenceOrder) {
        precondition(KeypointAxis.isPermutation(axes), "axes must name T, C and J once each")
        self.variable = variable
        self.axes = axes
    }

    /// Reads the one sequence of a MAT-file.
    ///
    /// - Parameters:
    ///   - url: A `.mat` file.
    ///   - layout: The layout whose joint and channel counts the variable's J and C dimensions must equal.
    ///   - frameRate: Frames per second (greater than zero) of the recording.
    ///   - label: The sequence's class label; required, since the file carries none.
    /// - Returns: One sequence of shape `[T, C, J]`.
    /// - Throws: ``ImportError`` naming the file (and the variable): a missing label; a file that is
    ///   not a MAT 5 or 7.3 file or is truncated (`.unreadable`, with libmatio's message); no such
    ///   variable (listing those present); a variable that is not a real numeric array; a rank other
    ///   than 3; a J or C dimension that differs from the layout; no frames; a NaN or infinite value
    ///   (or one beyond Float32's range) at its subscripts in the variable's own axis order.
    /// - Precondition: `frameRate` is positive and finite.
    public func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence] {
        precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be a positive number of frames per second")
        let path = url.path
        guard let label else { throw ImportError(path: path, line: nil, kind: .missingLabel) }
        let array = try read(url)
        let axisNames = axes.map(\.rawValue)
        guard array.dimensions.count == 3 else {
            throw ImportError(path: path, line: nil, kind: .wrongRank(variable: variable, axes: axisNames, dimensions: array.dimensions))
        }
        func size(of axis: KeypointAxis) -> Int { array.dimensions[axes.firstIndex(of: axis) ?? 0] }
        for (axis, expected) in [(KeypointAxis.joint, layout.jointCount), (.channel, layout.channelCount)] where size(of: axis) != expected {
            throw ImportError(
                path: path, line: nil,
                kind: .dimensionMismatch(
                    variable: variable, axes: axisNames, dimensions: array.dimensions, axis: axis.rawValue,
                    layout: layout.name, expected: expected))
        }
        let frames = size(of: .time)
        guard frames > 0 else { throw ImportError(path: path, line: nil, kind: .noData) }

        // Strides of T, C and J in the [T, C, J] output, in the variable's dimension order.
        let outputStride: [KeypointAxis: Int] = [.time: layout.channelCount * layout.jointCount, .channel: layout.jointCount, .joint: 1]
        let strides = axes.map { outputStride[$0] ?? 0 }
        let (d0, d1) = (array.dimensions[0], array.dimensions[1])
        var keypoints = [Float](repeating: 0, count: array.values.count)
        var linear = 0
        for i2 in 0..<array.dimensions[2] {
            for i1 in 0..<d1 {
                for i0 in 0..<d0 {
                    let value = array.values[linear]
                    let single = Float(value)
                    guard single.isFinite else {
                        throw ImportError(
                            path: path, line: nil,
                            kind: .nonFiniteValue(
                                sampleID: path, token: "\(value)",
                                location: .element(variable: variable, axes: axisNames, subscripts: [i0, i1, i2])))
                    }
                    keypoints[i0 * strides[0] + i1 * strides[1] + i2 * strides[2]] = single
                    linear += 1
                }
            }
        }
        let sequence = PoseSequence(
            keypoints: keypoints, timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: frameRate),
            channelCount: layout.channelCount, jointCount: layout.jointCount, frameRate: frameRate)
        return [LabeledSequence(id: path, label: label, group: path, sequence: sequence)]
    }

    /// The variable's values, with MAT-file problems turned into ``ImportError``s.
    private func read(_ url: URL) throws -> MATNumericArray {
        let path = url.path
        do {
            return try MATFile(readingFrom: url).readNumericArray(named: variable)
        } catch let error as MATFileError {
            switch error.kind {
            case let .variableNotFound(available):
                throw ImportError(path: path, line: nil, kind: .noSuchVariable(variable: variable, present: available))
            case let .notRealNumeric(found):
                throw ImportError(path: path, line: nil, kind: .unsupportedVariable(variable: variable, found: found))
            default:
                throw ImportError(path: path, line: nil, kind: .unreadable(reason: "\(error)"))
            }
        }
    }
}
