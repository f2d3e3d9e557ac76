import AtomicFiles
import ContentHashing
import Foundation
import HDF5

/// A model's weights (and optionally its optimizer's state) in one HDF5 file.
///
/// Layout, readable with h5py:
/// ```
/// /                      attributes: format = "actionlab-checkpoint", format_version = 1,
///                        metadata_sha256 (see below), plus the caller's metadata as string
///                        attributes (model kind, labels, ...)
/// /model/<tensor name>   float32 datasets in the model's state-dictionary order and shapes
///                        (`blocks.0.convolution.weight` [out, in, k], ...); the group's
///                        attribute `tensor_names` lists the names in that order
/// /optimizer/<name>      float32 optimizer state (`step`, `i.firstMoment`, ...), when saved
/// /best_model/<name>     a second copy of the model's tensors (the best epoch's weights of a
///                        run that restores them), when saved
/// ```
/// Every tensor is stored in chunks with HDF5's Fletcher-32 checksum (`H5Pset_fletcher32`), so a
/// changed byte fails the read, naming the file and the tensor, instead of loading another
/// weight (h5py verifies it too). Checkpoints written before the checksum (contiguous datasets)
/// still read.
///
/// HDF5 has no checksum for attributes, so the root attribute `metadata_sha256` guards the
/// metadata: the lowercase hexadecimal SHA-256 (FIPS 180-4) of every metadata key and value in
/// UTF-8, keys in byte order, each key and each value followed by one NUL byte. An attribute
/// changed after writing (a `labels` list reordered with h5py would relabel every prediction
/// silently) fails the read. Checkpoints written before it existed have no such attribute and
/// still read, unguarded.
///
/// The file is written to a temporary name and renamed into place (``AtomicFile``), so a
/// killed process leaves the old checkpoint or the new one.
public struct Checkpoint {
    /// Value of the root `format` attribute.
    public static let format = "actionlab-checkpoint"
    /// Value of the root `format_version` attribute.
    public static let formatVersion: Int64 = 1
    /// Name of the root attribute holding ``metadataDigest(of:)`` of the metadata.
    public static let metadataDigestAttribute = "metadata_sha256"
    /// Root attribute names the format uses itself, which metadata cannot take.
    public static let reservedAttributes: Set<String> = ["format", "format_version", metadataDigestAttribute]

    /// The model's tensors in state-dictionary order.
    public var model: [(name: String, tensor: Tensor)]
    /// The optimizer's state, if saved.
    public var optimizer: [(name: String, tensor: Tensor)]?
    /// Another set of model tensors kept beside the current ones (the best epoch's weights), if saved.
    public var bestModel: [(name: String, tensor: Tensor)]?
    /// Free-form metadata, stored as root string attributes.
    public var metadata: [String: String]

    /// Creates a checkpoint from state dictionaries.
    ///
    /// - Parameters:
    ///   - model: The model's state dictionary.
    ///   - optimizer: The optimizer's state dictionary, if any.
    ///   - bestModel: A second model state dictionary (the best epoch's weights), if any.
    ///   - metadata: String attributes of the root group.
    public init(
        model: [(name: String, tensor: Tensor)], optimizer: [(name: String, tensor: Tensor)]? = nil,
        bestModel: [(name: String, tensor: Tensor)]? = nil, metadata: [String: String] = [:]
    ) {
        self.model = model
        self.optimizer = optimizer
        self.bestModel = bestModel
        self.metadata = metadata
    }

    /// Writes the checkpoint to `url` atomically.
    /// - Throws: `HDF5Error` if HDF5 cannot build the file, `AtomicFileError` if it cannot be
    ///   written (a full disk), synced or renamed into place, `CheckpointError.reservedMetadataKey` for a metadata key
    ///   that collides with the format's own attributes (``reservedAttributes``).
    public func write(to url: URL) throws {
        for key in metadata.keys where Self.reservedAttributes.contains(key) {
            throw CheckpointError.reservedMetadataKey(key)
        }
        // Built in memory and written with write(2): a full disk fails that write, never an
        // HDF5 flush (after which libhdf5 1.10.8 crashed the process at exit).
        let file = try HDF5File.createInMemory(name: AtomicFile.temporaryURL(for: url).path)
        defer { try? file.close() }
        let root = try file.root()
        try root.attributes.write(Self.format, named: "format")
        try root.attributes.write(Self.formatVersion, named: "format_version")
        try root.attributes.write(Self.metadataDigest(of: metadata), named: Self.metadataDigestAttribute)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            try root.attributes.write(value, named: key)
        }
        try Self.writeTensors(model, into: root.createGroup("model"))
        if let optimizer {
            try Self.writeTensors(optimizer, into: root.createGroup("optimizer"))
        }
        if let bestModel {
            try Self.writeTensors(bestModel, into: root.createGroup("best_model"))
        }
        try AtomicFile.write(try file.image(), to: url)
    }

    /// Reads a checkpoint written by ``write(to:)``.
    /// - Throws: `HDF5Error` if the file cannot be read (a tensor failing its checksum among
    ///   them), `CheckpointError.notACheckpoint` or `.unsupportedVersion` if it is another kind of
    ///   HDF5 file, `CheckpointError.metadataChanged` if the root attributes no longer match
    ///   their `metadata_sha256`.
    public init(contentsOf url: URL) throws {
        let file = try HDF5File.open(at: url, mode: .readOnly)
        defer { try? file.close() }
        let root = try file.root()
        let version = try Self.checkFormat(of: root.attributes, path: url.path)
        guard version == Self.formatVersion else { throw CheckpointError.unsupportedVersion(path: url.path, version: version) }
        metadata = try Self.verifiedMetadata(of: root.attributes, path: url.path)
        model = try Self.readTensors(root.openGroup("model"))
        optimizer = try root.contains("optimizer") ? try Self.readTensors(root.openGroup("optimizer")) : nil
        bestModel = try root.contains("best_model") ? try Self.readTensors(root.openGroup("best_model")) : nil
    }

    /// Why the file at `url` cannot be a whole checkpoint, found without reading its tensors:
    /// HDF5 does not open it (it is not HDF5, or it is truncated: the end of file its superblock
    /// records lies beyond its size), or its root `format` attribute is not ``format``. A changed
    /// byte inside a tensor is not looked for here; its Fletcher-32 checksum fails the read.
    ///
    /// Cheap enough for every trial of a sweep each time `status` or `run` looks at them (it reads
    /// the superblock and the root attributes).
    /// - Returns: HDF5's message or what is wrong, without the path; nil when the file is whole.
    public static func openingProblem(at url: URL) -> String? {
        do {
            let file = try HDF5File.open(at: url, mode: .readOnly)
            defer { try? file.close() }
            let attributes = try file.root().attributes
            _ = try checkFormat(of: attributes, path: url.path)
            _ = try verifiedMetadata(of: attributes, path: url.path)
            return nil
        } catch let error as HDF5Error {
            return error.hdf5Message.isEmpty ? "\(error)" : error.hdf5Message
        } catch let error as CheckpointError {
            return error.problem
        } catch {
            return "\(error)"
        }
    }

    /// The digest `metadata_sha256` records: SHA-256 of each key and value (UTF-8, each
    /// followed by a NUL byte), keys in byte order, as 64 lowercase hexadecimal digits.
    ///
    /// In Python: `hashlib.sha256(b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in
    /// sorted(metadata.items(), key=lambda kv: kv[0].encode()))).hexdigest()`.
    /// (``ContentHash/sha256(ofFields:)`` of the keys and values alternating.)
    /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL fails.
    public static func metadataDigest(of metadata: [String: String]) throws -> String {
        let sorted = metadata.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return try ContentHash.sha256(ofFields: sorted.flatMap { [$0.key, $0.value] }).hexDigest
    }

    /// The root `format_version`, after checking that `format` names this format.
    private static func checkFormat(of attributes: HDF5Attributes, path: String) throws -> Int64 {
        let format = try attributes.contains("format") ? try attributes.string("format") : ""
        guard format == Self.format else { throw CheckpointError.notACheckpoint(path: path, format: format) }
        return try attributes.int64("format_version")
    }

    /// The caller's metadata (every root attribute but ``reservedAttributes``), checked against
    /// `metadata_sha256` when the file has one.
    private static func verifiedMetadata(of attributes: HDF5Attributes, path: String) throws -> [String: String] {
        var metadata: [String: String] = [:]
        for name in try attributes.names() where !reservedAttributes.contains(name) {
            metadata[name] = try attributes.string(name)
        }
        if try attributes.contains(metadataDigestAttribute) {
            let recorded = try attributes.string(metadataDigestAttribute)
            guard recorded == (try metadataDigest(of: metadata)) else {
                throw CheckpointError.metadataChanged(path: path)
            }
        }
        return metadata
    }

    private static func writeTensors(_ tensors: [(name: String, tensor: Tensor)], into group: HDF5Group) throws {
        try group.attributes.write(tensors.map(\.name), named: "tensor_names")
        for (name, tensor) in tensors {
            try group.createDataset(name, values: tensor.values, shape: tensor.shape, checksummed: true)
        }
    }

    private static func readTensors(_ group: HDF5Group) throws -> [(name: String, tensor: Tensor)] {
        try group.attributes.strings("tensor_names").map { name in
            let array = try group.openDataset(name).read(Float.self)
            return (name, Tensor(shape: array.shape, values: array.values))
        }
    }
}

/// A file is not a checkpoint this version of ActionLab can read.
public enum CheckpointError: Error, Equatable, CustomStringConvertible {
    /// The root `format` attribute is missing or names another format.
    case notACheckpoint(path: String, format: String)
    /// The checkpoint was written by a newer format version.
    case unsupportedVersion(path: String, version: Int64)
    /// Metadata used a key the format reserves.
    case reservedMetadataKey(String)
    /// The root attributes differ from what their `metadata_sha256` recorded when the file was
    /// written: one was edited, added or removed since.
    case metadataChanged(path: String)

    public var description: String {
        switch self {
        case let .notACheckpoint(path, format):
            return "\(path): not an ActionLab checkpoint (format attribute '\(format)', expected '\(Checkpoint.format)')"
        case let .unsupportedVersion(path, version):
            return "\(path): checkpoint format version \(version) is not supported (this ActionLab reads \(Checkpoint.formatVersion))"
        case let .reservedMetadataKey(key):
            return "checkpoint metadata key '\(key)' is reserved"
        case let .metadataChanged(path):
            return "\(path): \(problem)"
        }
    }

    /// What is wrong, without the path (for messages that name the file themselves).
    public var problem: String {
        switch self {
        case let .notACheckpoint(_, format): return "not an ActionLab checkpoint (format '\(format)')"
        case let .unsupportedVersion(_, version): return "checkpoint format version \(version) is not supported"
        case .metadataChanged:
            return "its root attributes (labels, frame rate, …) were changed after it was written: they no longer match "
                + "its \(Checkpoint.metadataDigestAttribute)"
        case .reservedMetadataKey: return description
        }
    }
}
