"""MediaPipe's own Python pose landmarker, the reference ActionLab's Swift estimator is checked against.

    python mediapipe_reference.py --pixels FRAME.rgb --width W --height H --model MODEL.task \
        --mode image|video --timestamps-ms 0,33,67

FRAME.rgb holds one picture as packed 8-bit RGB rows (W * H * 3 bytes, top row first). The picture
is run through a PoseLandmarker (num_poses 1, MediaPipe's default thresholds) once per timestamp;
in video mode the timestamps (milliseconds) must increase. Prints JSON to stdout: per call, per
person, the 33 landmarks as [x, y, z, visibility, presence] in MediaPipe's image coordinates
(normalized, origin top left; null for a score the model does not report).
Run it with the interpreter of data/pose/.venv-reference (scripts/setup-pose makes it).
"""

import argparse
import json

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
    parser.add_argument("--timestamps-ms", default="0")
    arguments = parser.parse_args()

    pixels = np.fromfile(arguments.pixels, dtype=np.uint8).reshape(arguments.height, arguments.width, 3)
    image = image_lib.Image(image_lib.ImageFormat.SRGB, pixels)
    mode = vision_task_running_mode.VisionTaskRunningMode
    options = pose_landmarker.PoseLandmarkerOptions(
        base_options=base_options_lib.BaseOptions(model_asset_path=arguments.model),
        running_mode=mode.IMAGE if arguments.mode == "image" else mode.VIDEO,
    )
    calls = []
    with pose_landmarker.PoseLandmarker.create_from_options(options) as landmarker:
        for timestamp in (int(t) for t in arguments.timestamps_ms.split(",")):
            if arguments.mode == "image":
                result = landmarker.detect(image)
            else:
                result = landmarker.detect_for_video(image, timestamp)
            calls.append([
                [[l.x, l.y, l.z, l.visibility, l.presence] for l in person] for person in result.pose_landmarks
            ])
    print(json.dumps(calls))


if __name__ == "__main__":
    main()
