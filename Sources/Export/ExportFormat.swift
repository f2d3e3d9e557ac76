import Foundation

/// A file format `actionlab export` can write.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `model.onnx`: the inference graph, input `poses` `[T, C, J]`, output `labelProbabilities`.
    case onnx
    /// `weights.safetensors`: the state dictionary in Hugging Face's safetensors format.
    case safetensors
    /// `weights.h5`: a byte-for-byte copy of the trial's ActionLab HDF5 checkpoint.
    case h5
    /// `model.mlmodel`: a Core ML neural-network classifier with Create ML's interface, input
    /// `poses` `[T, C, J]`, outputs `labelProbabilities` (label → probability) and `label`.
    case coreml

    /// The formats `actionlab export` writes without `--format`: all but ``coreml``, which is
    /// asked for by name (its network has no translation of the in-model keypoint
    /// normalizations yet, and only macOS can run it).
    public static let defaultFormats: Set<ExportFormat> = [.onnx, .safetensors, .h5]

    /// The file the format is written to inside the export folder.
    public var fileName: String {
        switch self {
        case .onnx: "model.onnx"
        case .safetensors: "weights.safetensors"
        case .h5: "weights.h5"
        case .coreml: "model.mlmodel"
        }
    }

    /// Parses a comma-separated list such as `onnx,safetensors`.
    ///
    /// - Parameter list: Format names separated by commas; spaces around names are ignored.
    /// - Returns: The formats named, at least one.
    /// - Throws: ``ExportError/unknownFormat(_:known:)`` for a name that is not a format, or an
    ///   empty list.
    public static func parseList(_ list: String) throws -> Set<ExportFormat> {
        var formats: Set<ExportFormat> = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let format = ExportFormat(rawValue: trimmed) else {
                throw ExportError.unknownFormat(trimmed, known: allCases.map(\.rawValue))
            }
            formats.insert(format)
        }
        return formats
    }

    public static func < (lhs: ExportFormat, rhs: ExportFormat) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
