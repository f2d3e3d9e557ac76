import AtomicFiles
import Foundation
import Protobuf

/// A TensorBoard event file built in memory and written in one atomic step.
///
/// The file is a ``TFRecordFile`` of serialized `Event` messages: first the file-version event
/// (`brain.Event:2`), then the events added, in order. Scalars are `Summary.Value.simple_value`s,
/// which TensorBoard's scalars dashboard reads; hyperparameter records are the HParams plugin's
/// summaries (`tensorboard/plugins/hparams/summary.py`: `experiment_pb`, `session_start_pb`,
/// `session_end_pb`). `tensorboard --logdir DIR` finds every file named `*tfevents*` below `DIR`
/// and shows each folder holding one as a run.
///
/// Files are rewritten whole (``write(toFolder:)``), never appended to, so a killed writer leaves the
/// previous file or the new one, never a truncated record.
public struct EventFile: Sendable, Equatable {
    /// The name of every event file ActionLab writes: TensorBoard needs `tfevents` in it, and a
    /// fixed name lets a rewrite replace the previous file.
    public static let fileName = "events.out.tfevents.actionlab"

    /// The TFRecord bytes so far.
    public private(set) var records = TFRecordFile()

    /// Starts a file with the file-version event.
    /// - Parameter wallTime: Seconds since 1970-01-01 UTC.
    public init(wallTime: Double) {
        append(Event(wallTime: wallTime, step: 0, content: .fileVersion("brain.Event:2")))
    }

    /// The file's bytes.
    public var bytes: [UInt8] { records.bytes }

    /// Adds a scalar.
    /// - Parameters:
    ///   - tag: The chart's name, `group/name` by TensorBoard's convention (`train/loss`).
    ///   - value: The value; stored as a 32-bit float, as TensorBoard's scalars are.
    ///   - step: The x coordinate (for ActionLab, the epoch).
    ///   - wallTime: Seconds since 1970-01-01 UTC.
    public mutating func addScalar(tag: String, value: Double, step: Int, wallTime: Double) {
        let value = Summary.Value(tag: tag, kind: .simpleValue(Float(value)), metadata: nil)
        append(Event(wallTime: wallTime, step: Int64(step), content: .summary(Summary(values: [value]))))
    }

    /// Adds the HParams plugin's experiment record: which hyperparameters and metrics the
    /// sessions below the folder share, for the HParams dashboard's table and
    /// parallel-coordinates view.
    /// - Parameters:
    ///   - name: The experiment's name; may be empty.
    ///   - description: Shown above the table; may be empty.
    ///   - hyperparameters: The columns of hyperparameters, in order.
    ///   - metrics: The metric columns, in order.
    ///   - wallTime: Seconds since 1970-01-01 UTC; also the experiment's creation time.
    public mutating func addExperiment(
        name: String, description: String, hyperparameters: [HParamInfo], metrics: [MetricInfo], wallTime: Double
    ) {
        addHParams(.experiment(name: name, description: description, timeCreated: wallTime, hparams: hyperparameters, metrics: metrics),
                   wallTime: wallTime)
    }

    /// Adds the HParams plugin's session-start record: this run is one session, with these values.
    /// - Parameters:
    ///   - hyperparameters: Name and value of each hyperparameter, in order; names should be
    ///     those of the experiment's ``HParamInfo``s.
    ///   - groupName: Sessions of one group are repetitions of one configuration; empty makes
    ///     the session its own group.
    ///   - wallTime: Seconds since 1970-01-01 UTC; also the session's start time.
    public mutating func addSessionStart(hyperparameters: [(name: String, value: HParamValue)], groupName: String = "", wallTime: Double) {
        addHParams(.sessionStart(hparams: hyperparameters, groupName: groupName, startTime: wallTime), wallTime: wallTime)
    }

    /// Adds the HParams plugin's session-end record.
    /// - Parameters:
    ///   - succeeded: The session's status: success, or failure (a diverged training).
    ///   - wallTime: Seconds since 1970-01-01 UTC; also the session's end time.
    public mutating func addSessionEnd(succeeded: Bool, wallTime: Double) {
        addHParams(.sessionEnd(succeeded: succeeded, endTime: wallTime), wallTime: wallTime)
    }

    /// Writes the file as `folder/events.out.tfevents.actionlab`, creating `folder`, atomically.
    /// - Throws: `AtomicFileError` if the folder cannot be created or the file written.
    public func write(toFolder folder: URL) throws {
        try AtomicFile.write(Data(bytes), to: folder.appendingPathComponent(Self.fileName))
    }

    private mutating func addHParams(_ data: HParamsPluginData, wallTime: Double) {
        let metadata = SummaryMetadata(pluginName: "hparams", content: data.serializedBytes())
        let value = Summary.Value(tag: data.tag, kind: .emptyTensor, metadata: metadata)
        append(Event(wallTime: wallTime, step: 0, content: .summary(Summary(values: [value]))))
    }

    private mutating func append(_ event: Event) {
        records.append(event.serializedBytes())
    }
}
