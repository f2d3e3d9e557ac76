"""MediaPipe's own Python pose landmarker over whole videos, end to end: what `actionlab extract`
does, written the way a Python user would, for scripts/bench-pose --videos.

    python mediapipe_videos.py --model MODEL.task [--processes P] VIDEO...

Each video is decoded by the ffmpeg command into packed RGB frames read from a pipe (decoding runs
in the ffmpeg process, beside pose estimation, as ActionLab decodes on a thread of its own), and
goes through a PoseLandmarker of its own in video mode (one person, MediaPipe's default
thresholds), stamped round(i * 1000 / frame rate) ms. With --processes 1 the videos run one after
another in this process; with P > 1 a multiprocessing pool of P processes takes them one at a time
(chunksize 1, so long and short videos balance).

Prints JSON to stdout: {"videos", "frames", "seconds", "framesPerSecond", "processes"}; the time
runs from before the first video (the pool's start-up included) to after the last one.
Run it with the interpreter of data/pose/.venv-reference (scripts/setup-pose makes it).
"""

import argparse
import json
import multiprocessing
import subprocess
import time
from fractions import Fraction

import numpy as np
from mediapipe.tasks.python.core import base_options as base_options_lib
from mediapipe.tasks.python.vision import pose_landmarker
from mediapipe.tasks.python.vision.core import image as image_lib
from mediapipe.tasks.python.vision.core import vision_task_running_mode

MODEL = ""


def probe(video: str) -> tuple[int, int, float]:
    """The displayed width, height and frame rate of the video's first stream, by ffprobe."""
    text = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,avg_frame_rate",
         "-of", "csv=p=0", video],
        check=True, capture_output=True, text=True).stdout.strip()
    width, height, rate = text.split(",")[:3]
    return int(width), int(height), float(Fraction(rate))


def extract(video: str) -> int:
    """Estimates the pose in every frame of `video`; returns the number of frames."""
    width, height, frame_rate = probe(video)
    options = pose_landmarker.PoseLandmarkerOptions(
        base_options=base_options_lib.BaseOptions(model_asset_path=MODEL),
        running_mode=vision_task_running_mode.VisionTaskRunningMode.VIDEO,
        num_poses=1,
    )
    decoder = subprocess.Popen(
        ["ffmpeg", "-v", "error", "-nostdin", "-i", video, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        stdout=subprocess.PIPE)
    size = width * height * 3
    frames = 0
    with pose_landmarker.PoseLandmarker.create_from_options(options) as landmarker:
        while True:
            data = decoder.stdout.read(size)
            if len(data) < size:
                break
            pixels = np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)
            landmarker.detect_for_video(image_lib.Image(image_lib.ImageFormat.SRGB, pixels), round(frames * 1000 / frame_rate))
            frames += 1
    if decoder.wait() != 0:
        raise RuntimeError(f"ffmpeg failed on {video}")
    return frames


def initialize(model: str) -> None:
    global MODEL
    MODEL = model


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("videos", nargs="+")
    arguments = parser.parse_args()
    start = time.perf_counter()
    if arguments.processes == 1:
        initialize(arguments.model)
        counts = [extract(video) for video in arguments.videos]
    else:
        with multiprocessing.Pool(arguments.processes, initializer=initialize, initargs=(arguments.model,)) as pool:
            counts = pool.map(extract, arguments.videos, chunksize=1)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "videos": len(counts), "frames": sum(counts), "seconds": seconds, "framesPerSecond": sum(counts) / seconds,
        "processes": arguments.processes,
    }))


if __name__ == "__main__":
    main()
