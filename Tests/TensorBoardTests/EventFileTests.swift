import ActionLabTestSupport
import Foundation
import Protobuf
@testable import TensorBoard
import Testing

/// CRC-32C and TFRecord framing against their specifications, and event files read back by
/// TensorBoard's own Python reader.
@Suite struct EventFileTests {
    /// RFC 3720, appendix B.4: the check value of "123456789", and the 32-byte test vectors of
    /// zeros and of 0xFF (CRC 0x8A9136AA and 0x62A8AB43).
    @Test func crc32cMatchesRFC3720() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    @Test func maskRotatesAndAddsTensorFlowsConstant() {
        let crc = CRC32C.checksum(Array("123456789".utf8))
        #expect(CRC32C.masked(Array("123456789".utf8)) == ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8)
    }

    /// Length (8 bytes, little-endian), its masked CRC, the data, the data's masked CRC.
    @Test func recordFraming() {
        var file = TFRecordFile()
        file.append([0x61, 0x62, 0x63])
        let length: [UInt8] = [3, 0, 0, 0, 0, 0, 0, 0]
        func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        #expect(file.bytes == length + littleEndian(CRC32C.masked(length)) + [0x61, 0x62, 0x63] + littleEndian(CRC32C.masked([0x61, 0x62, 0x63])))
        #expect(file.bytes.count == 8 + 4 + 3 + 4)
    }

    /// A scalar of value 0 and a Boolean false are written: oneof members are present even at
    /// their default, or the reader would see no value at all.
    @Test func defaultValuesOfOneofMembersAreWritten() {
        let zero = Summary(values: [Summary.Value(tag: "a", kind: .simpleValue(0), metadata: nil)])
        #expect(zero.serializedBytes() == [0x0A, 0x08, 0x0A, 0x01, 0x61, 0x15, 0, 0, 0, 0])
        #expect(HParamValue.bool(false).serializedBytes() == [0x20, 0x00])
        #expect(HParamValue.number(0).serializedBytes() == [0x11, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    static let reader = """
        import json, sys
        from tensorboard.backend.event_processing import event_accumulator
        from tensorboard.plugins.hparams import plugin_data_pb2, api_pb2
        acc = event_accumulator.EventAccumulator(sys.argv[1], size_guidance={event_accumulator.SCALARS: 0})
        acc.Reload()
        out = {"scalars": {t: [[e.step, e.value, e.wall_time] for e in acc.Scalars(t)] for t in acc.Tags()["scalars"]}}
        content = acc.PluginTagToContent("hparams")
        start = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/session_start_info"])
        out["version"] = start.version
        out["hparams"] = {k: v.WhichOneof("kind") + "=" + str(getattr(v, v.WhichOneof("kind"))) for k, v in start.session_start_info.hparams.items()}
        out["group"] = start.session_start_info.group_name
        end = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/session_end_info"]).session_end_info
        out["status"] = api_pb2.Status.Name(end.status)
        out["end"] = end.end_time_secs
        exp = plugin_data_pb2.HParamsPluginData.FromString(content["_hparams_/experiment"]).experiment
        out["experiment"] = [exp.name, exp.description, [(h.name, api_pb2.DataType.Name(h.type), len(h.domain_discrete.values)) for h in exp.hparam_infos],
                             [(m.name.tag, api_pb2.DatasetType.Name(m.dataset_type), m.display_name) for m in exp.metric_infos]]
        print(json.dumps(out, sort_keys=True))
        """

    static func sample() -> EventFile {
        var file = EventFile(wallTime: 1_700_000_000)
        file.addExperiment(
            name: "sweep", description: "two cells",
            hyperparameters: [HParamInfo(name: "windows.duration", values: [.number(2.5), .number(5)]),
                              HParamInfo(name: "augmentation", values: [.string("none"), .string("flip")]),
                              HParamInfo(name: "mixed", values: [.bool(true), .number(1)])],
            metrics: [MetricInfo(tag: "scores/test/accuracy", displayName: "test accuracy"), MetricInfo(tag: "scores/validation/accuracy", dataset: .validation)],
            wallTime: 1_700_000_000)
        file.addSessionStart(hyperparameters: [("windows.duration", .number(2.5)), ("augmentation", .string("flip")), ("flag", .bool(false))],
                             groupName: "cell 1", wallTime: 1_700_000_000.25)
        for epoch in 1...3 {
            file.addScalar(tag: "train/loss", value: 1 / Double(epoch), step: epoch, wallTime: 1_700_000_000 + Double(epoch))
        }
        file.addScalar(tag: "scores/test/accuracy", value: 0, step: 3, wallTime: 1_700_000_010)
        file.addSessionEnd(succeeded: false, wallTime: 1_700_000_010.5)
        return file
    }

    /// TensorBoard's event accumulator reads every scalar, step and wall time, and the HParams
    /// plugin's experiment, session start and session end records.
    @Test func tensorBoardReadsTheFile() throws {
        guard try PythonOracle.requireModules(["tensorboard"]) else { return }
        let scratch = try TemporaryDirectory(prefix: "event-file")
        try Self.sample().write(toFolder: scratch.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [EventFile.fileName])
        let result = try PythonOracle.run(Self.reader, arguments: [scratch.url.path])
        try #require(result.status == 0, "\(result.errorOutput)")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let scalars = try #require(read["scalars"] as? [String: [[Double]]])
        #expect(scalars["train/loss"]?.map { $0[0] } == [1, 2, 3])
        #expect(scalars["train/loss"]?.map { Float($0[1]) } == [1, 0.5, Float(1.0 / 3)])
        #expect(scalars["train/loss"]?.map { $0[2] } == [1_700_000_001, 1_700_000_002, 1_700_000_003])
        #expect(scalars["scores/test/accuracy"]?.map { $0[1] } == [0])
        #expect(read["version"] as? Int == 0)
        #expect(read["hparams"] as? [String: String] == ["windows.duration": "number_value=2.5", "augmentation": "string_value=flip", "flag": "bool_value=False"])
        #expect(read["group"] as? String == "cell 1")
        #expect(read["status"] as? String == "STATUS_FAILURE")
        #expect(read["end"] as? Double == 1_700_000_010.5)
        let experiment = try #require(read["experiment"] as? [Any])
        #expect(experiment[0] as? String == "sweep")
        #expect(experiment[1] as? String == "two cells")
        let hparams = try #require(experiment[2] as? [[Any]])
        #expect(hparams.map { $0[0] as? String } == ["windows.duration", "augmentation", "mixed"])
        #expect(hparams.map { $0[1] as? String } == ["DATA_TYPE_FLOAT64", "DATA_TYPE_STRING", "DATA_TYPE_STRING"])
        #expect(hparams.map { $0[2] as? Int } == [2, 2, 2])
        let metrics = try #require(experiment[3] as? [[Any]])
        #expect(metrics.map { $0[0] as? String } == ["scores/test/accuracy", "scores/validation/accuracy"])
        #expect(metrics.map { $0[1] as? String } == ["DATASET_UNKNOWN", "DATASET_VALIDATION"])
        #expect(metrics.map { $0[2] as? String } == ["test accuracy", ""])
    }

    /// The reader checks our CRCs: one flipped bit in a record's data makes it stop with a data
    /// loss error at that record, so a wrong checksum could not pass the test above unnoticed.
    @Test func aDamagedRecordIsCaughtByTensorBoard() throws {
        guard try PythonOracle.requireModules(["tensorboard"]) else { return }
        let scratch = try TemporaryDirectory(prefix: "event-file-damaged")
        var bytes = Self.sample().bytes
        bytes[bytes.count - 6] ^= 0x01  // inside the last record's data
        try Data(bytes).write(to: scratch.file(EventFile.fileName))
        let script = """
            import sys
            from tensorboard.compat.tensorflow_stub import pywrap_tensorflow, errors
            reader = pywrap_tensorflow.PyRecordReader_New(sys.argv[1], 0, None, None)
            count = 0
            try:
                while True:
                    reader.GetNext(); count += 1
            except errors.DataLossError as error:
                print("data loss after", count)
            except errors.OutOfRangeError:
                print("read", count)
            """
        let result = try PythonOracle.run(script, arguments: [scratch.file(EventFile.fileName).path])
        try #require(result.status == 0, "\(result.errorOutput)")
        // 1 version + experiment + session start + 3 + 1 scalars + session end = 8 records; the 8th is damaged.
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "data loss after 7")
    }
}
