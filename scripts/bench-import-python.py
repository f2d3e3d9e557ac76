#!/usr/bin/env python3
"""The reference of scripts/bench-import: a plain Python `json` loop reading an OpenPose dataset
(`<root>/<label>/<recording>/*.json`) into one float32 array [T, 18, 3] per recording, as a
researcher's loader does; with --processes N, a multiprocessing pool over the recordings.

Prints `files seconds` on one line.
"""
import argparse
import json
import multiprocessing
import pathlib
import sys
import time

import numpy


def load_recording(folder):
    frames = []
    for path in sorted(folder.glob("*.json")):
        with open(path) as file:
            people = json.load(file)["people"]
        keypoints = people[0]["pose_keypoints_2d"] if people else [0.0] * 54
        frames.append(keypoints)
    return numpy.asarray(frames, dtype=numpy.float32).reshape(len(frames), -1, 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    folders = sorted(path for path in args.root.glob("*/*") if path.is_dir())
    started = time.perf_counter()
    if args.processes > 1:
        with multiprocessing.Pool(args.processes) as pool:
            arrays = pool.map(load_recording, folders, chunksize=4)
    else:
        arrays = [load_recording(folder) for folder in folders]
    seconds = time.perf_counter() - started
    print(sum(len(array) for array in arrays), f"{seconds:.3f}")


if __name__ == "__main__":
    sys.exit(main())
