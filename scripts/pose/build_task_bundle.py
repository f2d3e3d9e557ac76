"""Builds MediaPipe's pose-landmarker model bundle (.task) from the models in mediapipe==0.10.21.

    python build_task_bundle.py WHEEL_ROOT OUTPUT.task

WHEEL_ROOT is the unpacked mediapipe-0.10.21 wheel; the mediapipe package itself must be importable
(scripts/setup-pose installs it, without dependencies, into a throwaway virtual environment).

The MediaPipe Tasks pose landmarker reads a zip of two TFLite models:
  pose_detector.tflite            <- mediapipe/modules/pose_detection/pose_detection.tflite
                                     (already carries TFLite metadata, used as is)
  pose_landmarks_detector.tflite  <- mediapipe/modules/pose_landmark/pose_landmark_full.tflite
                                     plus image-input metadata: RGB, normalization mean 0, std 255
                                     (the model takes pixel values in [0, 1]), written with the
                                     package's own metadata writer.
Entries are stored uncompressed, 4-byte aligned (as MediaPipe's model_asset_bundle_utils does, so
the library can mmap them) and with a fixed timestamp, so the bundle is byte-for-byte reproducible
and its SHA-256 can be pinned.
"""

import os
import site
import sys
import types
import zipfile

# Import the metadata writer without running mediapipe/__init__.py and
# mediapipe/tasks/python/__init__.py, which import the whole framework (protobuf, OpenCV,
# matplotlib, jax) that writing metadata does not need.
_site_packages = next(p for p in site.getsitepackages() if os.path.isdir(os.path.join(p, "mediapipe")))
for _name in ["mediapipe", "mediapipe.tasks", "mediapipe.tasks.python"]:
    _package = types.ModuleType(_name)
    _package.__path__ = [os.path.join(_site_packages, *_name.split("."))]
    sys.modules[_name] = _package

from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer  # noqa: E402
from mediapipe.tasks.python.metadata.metadata_writers import model_asset_bundle_utils  # noqa: E402

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def landmarks_model_with_metadata(model: bytes) -> bytes:
    writer = metadata_writer.MetadataWriter.create(bytearray(model))
    writer.add_general_info("pose_landmarks_detector", "BlazePose GHUM 3D, full variant (mediapipe 0.10.21)")
    writer.add_image_input(norm_mean=[0.0], norm_std=[255.0])
    with_metadata, _ = writer.populate()
    return bytes(with_metadata)


def main() -> None:
    wheel_root, output = sys.argv[1], sys.argv[2]
    modules = os.path.join(wheel_root, "mediapipe", "modules")
    with open(os.path.join(modules, "pose_detection", "pose_detection.tflite"), "rb") as f:
        detector = f.read()
    with open(os.path.join(modules, "pose_landmark", "pose_landmark_full.tflite"), "rb") as f:
        landmarks = landmarks_model_with_metadata(f.read())
    entries = {"pose_detector.tflite": detector, "pose_landmarks_detector.tflite": landmarks}
    with model_asset_bundle_utils.AlignZipFile(output, mode="w", alignment=4) as bundle:
        for name, content in entries.items():
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            bundle.writestr(info, content)


if __name__ == "__main__":
    main()
