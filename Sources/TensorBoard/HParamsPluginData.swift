import Protobuf

/// The HParams plugin's record (`tensorboard/plugins/hparams/plugin_data.proto`,
/// `HParamsPluginData`): `version` = 1 (0, left out), and of its `data` oneof `experiment` = 2,
/// `session_start_info` = 3 or `session_end_info` = 4. It is the `content` of a summary value's
/// `plugin_data` whose plugin name is `hparams`, under the tags in ``tag``.
enum HParamsPluginData: ProtobufMessage, Sendable, Equatable {
    /// `Experiment` (`api.proto`): `description` = 1, `time_created_secs` = 3,
    /// `hparam_infos` = 4, `metric_infos` = 5, `name` = 6.
    case experiment(name: String, description: String, timeCreated: Double, hparams: [HParamInfo], metrics: [MetricInfo])
    /// `SessionStartInfo`: `hparams` = 1 (a map: entries of `key` = 1, `value` = 2),
    /// `group_name` = 4, `start_time_secs` = 5.
    case sessionStart(hparams: [(name: String, value: HParamValue)], groupName: String, startTime: Double)
    /// `SessionEndInfo`: `status` = 1 (`Status`: `STATUS_SUCCESS` = 1, `STATUS_FAILURE` = 2),
    /// `end_time_secs` = 2.
    case sessionEnd(succeeded: Bool, endTime: Double)

    /// The summary tag each kind is written under (`tensorboard/plugins/hparams/metadata.py`).
    var tag: String {
        switch self {
        case .experiment: "_hparams_/experiment"
        case .sessionStart: "_hparams_/session_start_info"
        case .sessionEnd: "_hparams_/session_end_info"
        }
    }

    static func == (lhs: HParamsPluginData, rhs: HParamsPluginData) -> Bool {
        lhs.serializedBytes() == rhs.serializedBytes()
    }

    func encode(to encoder: inout ProtobufEncoder) {
        switch self {
        case let .experiment(name, description, timeCreated, hparams, metrics):
            encoder.writeMessage(field: 2, Fields { encoder in
                if !description.isEmpty { encoder.writeString(field: 1, description) }
                encoder.writeDouble(field: 3, timeCreated)
                for hparam in hparams { encoder.writeMessage(field: 4, hparam) }
                for metric in metrics { encoder.writeMessage(field: 5, metric) }
                if !name.isEmpty { encoder.writeString(field: 6, name) }
            })
        case let .sessionStart(hparams, groupName, startTime):
            encoder.writeMessage(field: 3, Fields { encoder in
                for (name, value) in hparams {
                    encoder.writeMessage(field: 1, Fields { entry in
                        entry.writeString(field: 1, name)
                        entry.writeMessage(field: 2, value)
                    })
                }
                if !groupName.isEmpty { encoder.writeString(field: 4, groupName) }
                encoder.writeDouble(field: 5, startTime)
            })
        case let .sessionEnd(succeeded, endTime):
            encoder.writeMessage(field: 4, Fields { encoder in
                encoder.writeInt64(field: 1, succeeded ? 1 : 2)
                encoder.writeDouble(field: 2, endTime)
            })
        }
    }

    /// A nested message written by a closure.
    private struct Fields: ProtobufMessage {
        let write: (inout ProtobufEncoder) -> Void
        init(_ write: @escaping (inout ProtobufEncoder) -> Void) { self.write = write }
        func encode(to encoder: inout ProtobufEncoder) { write(&encoder) }
    }
}
