"""MediaPipe's own Python pose landmarker: the reference ActionLab's Swift estimator is checked
against (tests) and timed against (scripts/bench-pose).

    python mediapipe_reference.py --pixels FRAMES.rgb --width W --height H --model MODEL.task \
        --mode image|video [--timestamps-ms 0,33,67 | --frame-rate 30] [--num-poses 1] [--benchmark]

FRAMES.rgb holds K pictures as packed 8-bit RGB rows (K * W * H * 3 bytes, top row first). Each
frame goes through one PoseLandmarker (MediaPipe's default thresholds) in order; in video mode
frame i is stamped with the i-th of --timestamps-ms, or else round(i * 1000 / --frame-rate) ms.
With one frame and several timestamps, that frame is sent once per timestamp.

Prints JSON to stdout. Normally: per call, per person, the 33 landmarks as
[x, y, z, visibility, presence] in MediaPipe's image coordinates (normalized, origin top left).
With --benchmark: {"frames", "seconds", "framesPerSecond", "framesWithPerson"}, timing only the
detection calls (frames already in memory, landmarker already created).
Run it with the interpreter of data/pose/.venv-reference (scripts/setup-pose makes it).
"""

import argparse
import json
import time

import numpy as np
from mediapipe.tasks.python.core import base_options as base_options_lib
from mediapipe.tasks.python.vision import pose_landmarker
from mediapipe.tasks.python.vision.core import image as image_lib
from mediapipe.tasks.python.vision.core import vision_task_running_mode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pixels", required=True)
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--mode", choices=["image", "video"], required=True)
    parser.add_argument("--timestamps-ms")
    parser.add_argument("--frame-rate", type=float, default=30.0)
    parser.add_argument("--num-poses", type=int, default=1)
    parser.add_argument("--benchmark", action="store_true")
    arguments = parser.parse_args()

    frames = np.fromfile(arguments.pixels, dtype=np.uint8).reshape(-1, arguments.height, arguments.width, 3)
    if arguments.timestamps_ms:
        timestamps = [int(t) for t in arguments.timestamps_ms.split(",")]
    else:
        timestamps = [round(i * 1000 / arguments.frame_rate) for i in range(len(frames))]
    if len(frames) == 1:
        frames = np.repeat(frames, len(timestamps), axis=0)
    if len(frames) != len(timestamps):
        parser.error(f"{len(frames)} frames but {len(timestamps)} timestamps")
    images = [image_lib.Image(image_lib.ImageFormat.SRGB, np.ascontiguousarray(frame)) for frame in frames]

    mode = vision_task_running_mode.VisionTaskRunningMode
    options = pose_landmarker.PoseLandmarkerOptions(
        base_options=base_options_lib.BaseOptions(model_asset_path=arguments.model),
        running_mode=mode.IMAGE if arguments.mode == "image" else mode.VIDEO,
        num_poses=arguments.num_poses,
    )
    with pose_landmarker.PoseLandmarker.create_from_options(options) as landmarker:
        start = time.perf_counter()
        results = [
            landmarker.detect(image) if arguments.mode == "image" else landmarker.detect_for_video(image, timestamp)
            for image, timestamp in zip(images, timestamps)
        ]
        seconds = time.perf_counter() - start

    if arguments.benchmark:
        print(json.dumps({
            "frames": len(results),
            "seconds": seconds,
            "framesPerSecond": len(results) / seconds,
            "framesWithPerson": sum(1 for result in results if result.pose_landmarks),
        }))
    else:
        print(json.dumps([
            [[[l.x, l.y, l.z, l.visibility, l.presence] for l in person] for person in result.pose_landmarks]
            for result in results
        ]))


if __name__ == "__main__":
    main()
