#!/usr/bin/env python3
"""Streams of several UTD-MHAD recordings, with their boundaries as montage annotations.

For `actionlab predict`'s temporal evaluation on real skeletons (issue 12): the recordings of the
test subjects (2, 4, 6, 8; never trained on) are joined end to end into keypoint CSV files at
30 frames/s (the `kinect-v1` layout's columns, timestamps in seconds), and `annotations.csv`
(Create ML's montage annotation columns file_name, label, start_time, end_time) gives each
recording's time range and action.

  mixed:  per subject and trial, N recordings of different actions back to back;
  repeat: per subject and action, its K recordings (trials) of that action, each followed by one
          second of the subject standing still (its next recording's first frame held; the
          last is followed by its own last frame held), so each performance is one event.

usage: utd-mhad-streams.py SKELETON_DIR OUTPUT_DIR --kind mixed|repeat [--actions N] [--seed S]
       [--subjects 2,4,6,8] [--limit M]
Reads the MAT-files with scipy.io.loadmat; writes only inside OUTPUT_DIR; prints a JSON summary.
"""
import argparse
import json
import os
import random

import numpy as np
import scipy.io

ACTIONS = [
    "swipe left", "swipe right", "wave", "clap", "throw", "arm cross", "basketball shoot", "draw x",
    "draw circle (clockwise)", "draw circle (counter clockwise)", "draw triangle", "bowling", "boxing",
    "baseball swing", "tennis swing", "arm curl", "tennis serve", "push", "knock", "catch",
    "pickup and throw", "jog", "walk", "sit to stand", "stand to sit", "lunge", "squat",
]
JOINTS = [
    "head", "shoulderCenter", "spine", "hipCenter", "leftShoulder", "leftElbow", "leftWrist", "leftHand",
    "rightShoulder", "rightElbow", "rightWrist", "rightHand", "leftHip", "leftKnee", "leftAnkle", "leftFoot",
    "rightHip", "rightKnee", "rightAnkle", "rightFoot",
]
FRAME_RATE = 30.0


def load(folder, action, subject, trial):
    path = os.path.join(folder, f"a{action}_s{subject}_t{trial}_skeleton.mat")
    if not os.path.exists(path):
        return None
    skeleton = scipy.io.loadmat(path)["d_skel"]  # [J, C, T]
    return np.transpose(skeleton, (2, 0, 1)).astype(np.float32)  # [T, J, C]


def write_stream(path, frames):
    header = ["timestamp"] + [f"{joint}.{axis}" for joint in JOINTS for axis in "xyz"]
    with open(path + ".tmp", "w") as out:
        out.write(",".join(header) + "\n")
        for index, frame in enumerate(frames):
            values = [repr(float(np.float32(v))) for v in frame.reshape(-1)]
            out.write(",".join([repr(index / FRAME_RATE)] + values) + "\n")
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("skeletons")
    parser.add_argument("output")
    parser.add_argument("--kind", choices=["mixed", "repeat"], required=True)
    parser.add_argument("--actions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--subjects", default="2,4,6,8")
    parser.add_argument("--limit", type=int, default=0, help="at most this many streams (0: all)")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    generator = random.Random(args.seed)
    subjects = [int(s) for s in args.subjects.split(",")]
    annotations = []
    streams = []
    if args.kind == "mixed":
        plans = []
        for subject in subjects:
            for trial in range(1, 5):
                actions = generator.sample(range(1, 28), args.actions)
                plans.append((f"mixed_s{subject}_t{trial}", [(a, subject, trial) for a in actions]))
    else:
        plans = []
        for subject in subjects:
            for action in range(1, 28):
                plans.append((f"repeat_a{action}_s{subject}", [(action, subject, t) for t in range(1, 5)]))
        generator.shuffle(plans)
    if args.limit:
        plans = plans[: args.limit]
    for name, recordings in plans:
        clips = [(a, load(args.skeletons, a, s, t)) for a, s, t in recordings]
        clips = [(a, c) for a, c in clips if c is not None]
        if len(clips) < 2:
            continue
        frames = []
        for index, (action, clip) in enumerate(clips):
            start = len(frames)
            frames.extend(clip)
            annotations.append((name + ".csv", ACTIONS[action - 1], start / FRAME_RATE, len(frames) / FRAME_RATE))
            if args.kind == "repeat":
                still = clips[index + 1][1][0] if index + 1 < len(clips) else clip[-1]
                frames.extend([still] * int(FRAME_RATE))
        write_stream(os.path.join(args.output, name + ".csv"), np.stack(frames))
        streams.append({"stream": name + ".csv", "recordings": len(clips), "label": ACTIONS[clips[0][0] - 1],
                        "frames": len(frames)})
    with open(os.path.join(args.output, "annotations.csv.tmp"), "w") as out:
        out.write("file_name,label,start_time,end_time\n")
        for file_name, label, start, end in annotations:
            out.write(f"{file_name},{label},{start!r},{end!r}\n")  # no label holds a comma
    os.replace(os.path.join(args.output, "annotations.csv.tmp"), os.path.join(args.output, "annotations.csv"))
    print(json.dumps({"streams": streams, "annotations": len(annotations)}))


if __name__ == "__main__":
    main()
