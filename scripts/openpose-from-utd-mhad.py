#!/usr/bin/env python3
"""Writes UTD-MHAD's real Kinect v1 skeletons as an OpenPose dataset: one folder of per-frame
COCO-18 JSON files (`--write_json` format) per recording, `<out>/<action>/<recording>/`.

Each 3-D joint (metres, camera frame: x right, y up, z away) is projected with a pinhole camera
of Kinect v1's nominal colour intrinsics (fx = fy = 525 px, centre (320, 240), 640 x 480 image):
u = 320 + 525 x / z, v = 240 - 525 y / z (pixels, origin top left, as OpenPose writes them).
COCO-18 joints come from the Kinect joints: nose = head, neck = shoulder_center, shoulders,
elbows, wrists, hips, knees and ankles; the eyes and ears, which Kinect v1 does not track, are
(0, 0, 0) as OpenPose writes undetected joints. Confidence 0.9 for tracked joints. This is real
human motion in OpenPose's file format, not OpenPose output.

    .venv/bin/python scripts/openpose-from-utd-mhad.py OUT [--recordings N]
"""
import argparse
import json
import pathlib
import sys

import scipy.io

# COCO-18 order -> 0-based Kinect v1 joint (None: not tracked by Kinect).
KINECT_FOR_COCO18 = [0, 1, 8, 9, 10, 4, 5, 6, 16, 17, 18, 12, 13, 14, None, None, None, None]
FOCAL, CENTRE_X, CENTRE_Y = 525.0, 320.0, 240.0


def frame_json(skeleton, frame):
    keypoints = []
    for joint in KINECT_FOR_COCO18:
        if joint is None:
            keypoints += [0.0, 0.0, 0.0]
            continue
        x, y, z = (float(skeleton[joint, axis, frame]) for axis in range(3))
        keypoints += [round(CENTRE_X + FOCAL * x / z, 3), round(CENTRE_Y - FOCAL * y / z, 3), 0.9]
    person = {"person_id": [-1], "pose_keypoints_2d": keypoints, "face_keypoints_2d": [],
              "hand_left_keypoints_2d": [], "hand_right_keypoints_2d": []}
    return json.dumps({"version": 1.3, "people": [person]})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--recordings", type=int, default=0, help="N recordings spread evenly over the sorted names (0: all 861)")
    parser.add_argument("--skeletons", type=pathlib.Path, default=pathlib.Path("data/utd-mhad/Skeleton"))
    args = parser.parse_args()
    mats = sorted(args.skeletons.glob("a*_s*_t*_skeleton.mat"))
    if not mats:
        sys.exit(f"openpose-from-utd-mhad: no UTD-MHAD skeletons in {args.skeletons}: run scripts/setup")
    if 0 < args.recordings < len(mats):
        # Evenly spread over the sorted names, so every action and subject is represented.
        mats = [mats[index * len(mats) // args.recordings] for index in range(args.recordings)]
    files = 0
    for mat in mats:
        skeleton = scipy.io.loadmat(mat)["d_skel"]
        recording = mat.stem.removesuffix("_skeleton")
        folder = args.out / recording.split("_")[0] / recording
        folder.mkdir(parents=True, exist_ok=True)
        for frame in range(skeleton.shape[2]):
            (folder / f"{recording}_{frame:012d}_keypoints.json").write_text(frame_json(skeleton, frame))
            files += 1
    print(f"{files} frame files in {len(mats)} recordings", file=sys.stderr)


if __name__ == "__main__":
    main()
