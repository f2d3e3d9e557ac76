import ActionLabTestSupport
import Foundation
import NeuralNetwork
import Testing

@Suite struct CheckpointTests {
    func model(seed: UInt64) throws -> TemporalConvolutionalNetwork {
        try TemporalConvolutionalNetwork(
            configuration: .init(inputChannels: 3, classCount: 2, channels: [4, 4], kernelSizes: [3, 3]), seed: seed)
    }

    @Test func roundTripRestoresIdenticalOutputsAndMetadata() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("weights.h5")
        let original = try model(seed: 1)
        let optimizer = Adam(learningRate: 0.01)
        let input = Tensor(shape: [2, 3, 8], values: (0..<48).map { Float($0 % 7) / 7 })
        // One step so optimizer state and running statistics are not at their initial values.
        let logits = original.forward(input, training: true)
        let loss = softmaxCrossEntropy(logits: logits, labels: [0, 1])
        zeroGradients(original.parameters)
        _ = original.backward(loss.gradient)
        optimizer.step(parameters: original.parameters)

        try Checkpoint(model: original.stateDictionary(), optimizer: optimizer.stateDictionary(),
                       metadata: ["model": "tcn", "labels": "[\"a\",\"b\"]"]).write(to: url)
        let restored = try Checkpoint(contentsOf: url)
        #expect(restored.metadata == ["model": "tcn", "labels": "[\"a\",\"b\"]"])
        #expect(restored.model.map(\.name) == original.stateDictionary().map(\.name))
        #expect(restored.optimizer?.count == optimizer.stateDictionary().count)

        let other = try model(seed: 2)
        #expect(other.forward(input, training: false) != original.forward(input, training: false))
        try other.load(stateDictionary: restored.model)
        #expect(other.forward(input, training: false) == original.forward(input, training: false))
    }

    @Test func reservedMetadataKeyIsRejectedBeforeWriting() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("weights.h5")
        try Checkpoint(model: [], metadata: [:]).write(to: url)
        #expect(throws: CheckpointError.reservedMetadataKey("format")) {
            try Checkpoint(model: [], metadata: ["format": "x"]).write(to: directory.file("other.h5"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("other.h5").path))
    }

    /// The cheap check `status` and `run` make of every finished trial's weights: a whole file
    /// passes; one cut short, an empty one and a file that is not HDF5 fail with HDF5's reason.
    @Test func openingProblemFindsATruncatedFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("weights.h5")
        try Checkpoint(model: try model(seed: 1).stateDictionary(), metadata: ["model": "x"]).write(to: url)
        #expect(Checkpoint.openingProblem(at: url) == nil)
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count - 1).write(to: directory.file("cut.h5"))
        let cut = try #require(Checkpoint.openingProblem(at: directory.file("cut.h5")))
        #expect(cut.contains("truncated file"), "\(cut)")
        try Data().write(to: directory.file("empty.h5"))
        #expect(Checkpoint.openingProblem(at: directory.file("empty.h5")) != nil)
        try Data("{}".utf8).write(to: directory.file("json.h5"))
        #expect(Checkpoint.openingProblem(at: directory.file("json.h5")) != nil)
        #expect(Checkpoint.openingProblem(at: directory.file("absent.h5")) != nil)
    }

    /// HDF5 checksums datasets, not attributes: `metadata_sha256` guards the root attributes. An
    /// edit with h5py (the `labels` reordered, an attribute added or removed) fails the read and
    /// the cheap opening check; the digest is the one h5py users compute by the documented rule,
    /// and a checkpoint without the attribute (written before it existed) still reads.
    @Test func editedRootAttributesFailTheirDigest() throws {
        guard try PythonOracle.requireH5py() else { return }
        let directory = try TemporaryDirectory()
        let metadata = ["model": "tcn", "labels": #"["jump","squat"]"#, "frame_rate": "30.0", "é": "ü"]
        let state = try model(seed: 1).stateDictionary()
        for name in ["whole", "relabeled", "added", "removed", "legacy"] {
            try Checkpoint(model: state, metadata: metadata).write(to: directory.file("\(name).h5"))
        }
        let result = try PythonOracle.run("""
            import hashlib, h5py, sys
            folder = sys.argv[1]
            with h5py.File(folder + "/whole.h5", "r") as f:
                meta = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()
                        if k not in ("format", "format_version", "metadata_sha256")}
                recorded = f.attrs["metadata_sha256"]
            digest = hashlib.sha256(b"".join(k.encode() + b"\\0" + v.encode() + b"\\0"
                                             for k, v in sorted(meta.items(), key=lambda kv: kv[0].encode()))).hexdigest()
            assert digest == recorded, (digest, recorded)
            with h5py.File(folder + "/relabeled.h5", "r+") as f:
                f.attrs["labels"] = '["squat","jump"]'
            with h5py.File(folder + "/added.h5", "r+") as f:
                f.attrs["note"] = "x"
            with h5py.File(folder + "/removed.h5", "r+") as f:
                del f.attrs["frame_rate"]
            with h5py.File(folder + "/legacy.h5", "r+") as f:
                del f.attrs["metadata_sha256"]
            print("ok")
            """, arguments: [directory.url.path])
        #expect(result.status == 0 && result.output.contains("ok"), "\(result.errorOutput)")
        #expect(try Checkpoint(contentsOf: directory.file("whole.h5")).metadata == metadata)
        #expect(Checkpoint.openingProblem(at: directory.file("whole.h5")) == nil)
        for name in ["relabeled", "added", "removed"] {
            let url = directory.file("\(name).h5")
            #expect(throws: CheckpointError.metadataChanged(path: url.path)) { try Checkpoint(contentsOf: url) }
            let problem = try #require(Checkpoint.openingProblem(at: url))
            #expect(problem.contains("were changed after it was written"), "\(problem)")
        }
        #expect(try Checkpoint(contentsOf: directory.file("legacy.h5")).metadata == metadata)
        #expect(throws: CheckpointError.reservedMetadataKey("metadata_sha256")) {
            try Checkpoint(model: [], metadata: ["metadata_sha256": "x"]).write(to: directory.file("reserved.h5"))
        }
    }
}
