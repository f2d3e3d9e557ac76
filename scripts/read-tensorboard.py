"""Reads a sweep folder's TensorBoard event files with TensorBoard's own reader and prints them as JSON.

usage: .venv/bin/python scripts/read-tensorboard.py SWEEP_DIR

The reference reader for ActionLab's event files (TensorBoardLogTests): TensorBoard's
`EventAccumulator` (which checks every record's length and data CRC-32C) loads
`SWEEP_DIR/tensorboard` (the HParams experiment) and every `SWEEP_DIR/trials/*/tensorboard`, and
the HParams plugin's records are parsed with the plugin's own protobuf classes. Output:

  {"experiment": {"name", "description", "hparams": [{"name", "type", "values"}], "metrics": [{"tag", "dataset"}]},
   "trials": {ID: {"hparams": {NAME: VALUE}, "status", "scalars": {TAG: [[STEP, VALUE], ...]}}}}

Exits 1 naming the folder if an event file is missing or unreadable.
"""
import json
import os
import sys

from tensorboard.backend.event_processing import event_accumulator
from tensorboard.plugins.hparams import api_pb2, plugin_data_pb2
from google.protobuf import json_format


def load(folder):
    if not any("tfevents" in name for name in os.listdir(folder)):
        sys.exit(f"read-tensorboard: no event file in {folder}")
    accumulator = event_accumulator.EventAccumulator(
        folder, size_guidance={event_accumulator.SCALARS: 0, event_accumulator.TENSORS: 0})
    accumulator.Reload()
    return accumulator


def hparams_records(accumulator):
    try:
        content = accumulator.PluginTagToContent("hparams")
    except KeyError:  # no summary of the plugin in this run
        content = {}
    return {tag: plugin_data_pb2.HParamsPluginData.FromString(data) for tag, data in content.items()}


def value(proto):
    kind = proto.WhichOneof("kind")
    return {"number_value": proto.number_value, "string_value": proto.string_value, "bool_value": proto.bool_value}.get(kind)


def main():
    sweep = sys.argv[1]
    root = hparams_records(load(os.path.join(sweep, "tensorboard")))
    experiment = root["_hparams_/experiment"].experiment
    out = {"experiment": {
        "name": experiment.name,
        "description": experiment.description,
        "hparams": [{"name": h.name, "type": api_pb2.DataType.Name(h.type),
                     "values": [value(v) for v in h.domain_discrete.values]} for h in experiment.hparam_infos],
        "metrics": [{"tag": m.name.tag, "group": m.name.group, "dataset": api_pb2.DatasetType.Name(m.dataset_type)}
                    for m in experiment.metric_infos],
    }, "trials": {}}
    trials = os.path.join(sweep, "trials")
    for trial in sorted(os.listdir(trials)):
        folder = os.path.join(trials, trial, "tensorboard")
        if not os.path.isdir(folder):
            continue
        accumulator = load(folder)
        records = hparams_records(accumulator)
        start = records["_hparams_/session_start_info"].session_start_info
        end = records["_hparams_/session_end_info"].session_end_info
        out["trials"][trial] = {
            "hparams": {name: value(v) for name, v in start.hparams.items()},
            "status": api_pb2.Status.Name(end.status),
            "scalars": {tag: [[event.step, event.value] for event in accumulator.Scalars(tag)]
                        for tag in accumulator.Tags()["scalars"]},
        }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
