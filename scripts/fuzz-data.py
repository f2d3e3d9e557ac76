#!/usr/bin/env python3
"""Fuzzes ActionLab's importers: mutated data files of every source format go through
`actionlab validate --data` (which imports them into a fresh feature cache and makes `run`'s
checks), which must accept them or reject them with an error, never crash or hang.

    scripts/fuzz-data.py --count 1000 [--formats uea,csv,...] [--seed 1] [--jobs 2] [--actionlab BIN]

`--count` is per format. Formats: uea (.ts), csv (keypoint CSV), kinetics (Kinetics-skeleton
JSON), openpose (a folder of per-frame JSON files, one of them mutated, or one deleted or
repeated), mat (a UTD-MHAD MAT-file), montage (annotations of a real video) and video (a short
clip or a picture, bytes mutated; every case runs pose estimation, so it is the slow one).
Numbers are replaced by extreme ones (1e308, NaN, 1e12 timestamps, …) in the text formats;
every format also gets raw byte edits and truncations. See scripts/fuzz_common.py for how
outcomes are sorted.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz_common as common  # noqa: E402

DATA = common.ROOT / "data"
FORMATS = ["uea", "csv", "kinetics", "openpose", "mat", "montage", "video"]


def kinetics_clip(rng: random.Random, frames: int) -> bytes:
    data = []
    for index in range(frames):
        pose, score = [], []
        for joint in range(18):
            pose += [round(0.3 + 0.02 * joint + 0.05 * math.sin(index / 5 + joint), 4), round(0.2 + 0.03 * joint, 4)]
            score.append(round(0.6 + 0.3 * rng.random(), 3))
        data.append({"frame_index": index + 1, "skeleton": [{"pose": pose, "score": score}]})
    return json.dumps({"data": data, "label": "squat", "label_index": 0}).encode()


def openpose_frame(index: int) -> bytes:
    keypoints = []
    for joint in range(18):
        keypoints += [round(200 + 10 * joint + 5 * math.sin(index / 4), 2), round(100 + 15 * joint, 2), 0.8]
    return json.dumps({"version": 1.3, "people": [{"person_id": [-1], "pose_keypoints_2d": keypoints}]}).encode()


class Fixture:
    """Seed files of one format, the file (or folder) each case mutates, and its manifest."""

    def __init__(self, fmt: str, work: Path, binary: Path, env: dict[str, str], rng: random.Random) -> None:
        self.format = fmt
        self.seed_folder = work / "seeds" / fmt
        self.seed_folder.mkdir(parents=True)
        getattr(self, f"make_{fmt}")(work, binary, env, rng)

    # Each maker sets self.targets (the seed paths a case mutates one of, relative to its folder),
    # self.files (seed files copied into each case folder) and self.sources (manifest sources).

    def make_uea(self, work, binary, env, rng) -> None:
        text = (DATA / "uea/BasicMotions/BasicMotions_TEST.ts").read_bytes().split(b"\n")
        header = [line for line in text if line.startswith((b"#", b"@"))]
        rows = [line for line in text if line and not line.startswith((b"#", b"@"))]
        self.files = {"case.ts": b"\n".join(header + rows[::5]) + b"\n"}
        self.targets = ["case.ts"]
        self.sources = '[{ format: "uea", path: "CASE/TARGET" }]'
        self.features = 'layout: "accelerometer-gyroscope", frameRate: 10'
        self.windows = "{ duration: 5 }"

    def make_csv(self, work, binary, env, rng) -> None:
        subprocess.run([str(binary), "synth", "--output", str(self.seed_folder / "synth"), "--classes", "squat,idle",
                        "--sequences-per-class", "3", "--seed", "1", "--duration", "2"], check=True, env=env,
                       capture_output=True)
        squat = sorted((self.seed_folder / "synth/squat").glob("*.csv"))
        self.files = {"case.csv": squat[0].read_bytes()}
        self.targets = ["case.csv"]
        self.sources = (f'[{{ format: "csv", path: "CASE/TARGET", label: "squat" }}, '
                        f'{{ format: "csv", path: "{squat[1]}", label: "squat" }}, '
                        f'{{ format: "csv", path: "{self.seed_folder / "synth/idle"}", label: "idle" }}]')
        self.features = 'layout: "vision18", frameRate: 30'
        self.windows = "{ duration: 1 }"

    def make_kinetics(self, work, binary, env, rng) -> None:
        (self.seed_folder / "idle.json").write_bytes(kinetics_clip(rng, 40).replace(b'"squat"', b'"idle"'))
        self.files = {"case.json": kinetics_clip(rng, 40)}
        self.targets = ["case.json"]
        self.sources = (f'[{{ format: "kinetics", path: "CASE/TARGET", frameRate: 30 }}, '
                        f'{{ format: "kinetics", path: "{self.seed_folder / "idle.json"}", frameRate: 30 }}]')
        self.features = 'layout: "vision18", frameRate: 30'
        self.windows = "{ duration: 1 }"

    def make_openpose(self, work, binary, env, rng) -> None:
        clean = self.seed_folder / "idle"
        clean.mkdir()
        self.files = {}
        for index in range(30):
            name = f"clip_{index:012d}_keypoints.json"
            (clean / name).write_bytes(openpose_frame(index + 3))
            self.files[f"clip/{name}"] = openpose_frame(index)
        self.targets = ["clip"]
        self.sources = (f'[{{ format: "openpose", path: "CASE/TARGET", label: "squat", imageSize: [640, 480], frameRate: 30 }}, '
                        f'{{ format: "openpose", path: "{clean}", label: "idle", imageSize: [640, 480], frameRate: 30 }}]')
        self.features = 'layout: "vision18", frameRate: 30'
        self.windows = "{ duration: 0.5 }"

    def make_mat(self, work, binary, env, rng) -> None:
        skeleton = DATA / "utd-mhad/Skeleton"
        self.files = {"compressed.mat": (skeleton / "a1_s1_t1_skeleton.mat").read_bytes()}
        # The dataset's files are compressed, so most byte edits only break zlib; an uncompressed
        # copy (written by SciPy, when the project's Python has it) lets edits reach the values.
        python = common.ROOT / ".venv/bin/python"
        plain = self.seed_folder / "plain.mat"
        if python.exists():
            subprocess.run([str(python), "-c", "import scipy.io, sys; scipy.io.savemat(sys.argv[2], "
                            "{'d_skel': scipy.io.loadmat(sys.argv[1])['d_skel']}, do_compression=False)",
                            str(skeleton / "a1_s1_t1_skeleton.mat"), str(plain)], check=True)
            self.files["plain.mat"] = plain.read_bytes()
        self.targets = sorted(self.files)
        self.sources = (f'[{{ format: "mat", path: "CASE/TARGET", label: "swipe", variable: "d_skel", axes: ["J", "C", "T"], frameRate: 30 }}, '
                        f'{{ format: "mat", path: "{skeleton / "a2_s1_t1_skeleton.mat"}", label: "wave", variable: "d_skel", axes: ["J", "C", "T"], frameRate: 30 }}]')
        self.features = 'layout: "kinect-v1", frameRate: 30'
        self.windows = "{ duration: 1 }"

    def make_montage(self, work, binary, env, rng) -> None:
        clip = self.seed_folder / "walk.mp4"
        ffmpeg(["-i", str(DATA / "opencv/vtest.avi"), "-t", "3", "-vf", "scale=320:240", "-r", "10", str(clip)])
        rows = [{"file_name": "walk.mp4", "label": "walk", "start_time": 0, "end_time": 1.5},
                {"file_name": "walk.mp4", "label": "stand", "start_time": 1.5, "end_time": 3}]
        self.files = {"annotations.json": json.dumps(rows, indent=1).encode(), "walk.mp4": clip.read_bytes()}
        self.targets = ["annotations.json"]
        self.sources = '[{ format: "montage", path: "CASE/TARGET" }]'
        self.features = 'layout: "vision18", frameRate: 10'
        self.windows = "{ duration: 0.5 }"

    def make_video(self, work, binary, env, rng) -> None:
        clip = self.seed_folder / "clip.mp4"
        ffmpeg(["-i", str(DATA / "opencv/vtest.avi"), "-t", "0.6", "-vf", "scale=192:144", "-r", "10", str(clip)])
        still = self.seed_folder / "picture.jpg"
        ffmpeg(["-i", str(DATA / "opencv/messi5.jpg"), "-vf", "scale=240:-2", str(still)])
        self.files = {"clip.mp4": clip.read_bytes(), "picture.jpg": still.read_bytes()}
        self.targets = ["clip.mp4", "picture.jpg"]
        self.sources = (f'[{{ format: "video", path: "CASE/TARGET", label: "walk" }}, '
                        f'{{ format: "video", path: "{still}", label: "stand" }}]')
        self.features = 'layout: "vision18", frameRate: 10'
        self.windows = "{ duration: 0.3 }"

    def manifest(self, case: Path, target: str, cache: Path) -> bytes:
        sources = self.sources.replace("CASE", str(case)).replace("TARGET", target)
        return f"""{{
  name: "fuzz-{self.format}",
  dataset: {{ sources: {sources}, validation: {{ strategy: "none" }} }},
  features: {{ {self.features}, cache: "{cache}" }},
  windows: {self.windows},
  model: {{ kind: "tcn" }},
  training: {{ epochs: 1 }},
}}
""".encode()

    def case_files(self, rng: random.Random) -> tuple[dict[str, bytes], str, str]:
        """The case's files, the target path and a description of the mutation."""
        files = dict(self.files)
        target = rng.choice(self.targets)
        if self.format == "openpose":
            names = sorted(files)
            action = rng.randrange(10)
            if action == 0:
                victim = rng.choice(names)
                del files[victim]
                return files, target, f"delete {victim}"
            if action == 1:
                source, destination = rng.sample(names, 2)
                files[destination] = files[source]
                return files, target, f"copy {source} over {destination}"
            victim = rng.choice(names)
            files[victim], description = mutate_text(files[victim], rng)
            return files, target, f"{victim}: {description}"
        text = self.format in ("uea", "csv", "kinetics", "montage")
        data = files[target]
        descriptions = []
        for _ in range(rng.choice([1, 1, 2])):
            data, description = mutate_text(data, rng) if text else common.mutate_bytes(data, rng)
            descriptions.append(description)
        files[target] = data
        return files, target, "; ".join(descriptions)


def mutate_text(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    choice = rng.randrange(6)
    if choice < 3:
        return common.mutate_number(data, rng)
    if choice == 3:
        lines = data.split(b"\n")
        index = rng.randrange(len(lines))
        action = rng.randrange(3)
        if action == 0:
            return b"\n".join(lines[:index] + lines[index + 1:]), f"delete line {index + 1}"
        if action == 1:
            return b"\n".join(lines[:index + 1] + [lines[index]] * rng.choice([1, 2, 100]) + lines[index + 1:]), f"repeat line {index + 1}"
        return data.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\n\n"])), "line ends"
    if choice == 4:
        old = rng.choice([b",", b":", b"[", b"]", b"{", b"}", b"\"", b"."])
        positions = [index for index in range(len(data)) if data[index:index + 1] == old]
        if positions:
            position = rng.choice(positions)
            new = rng.choice([b"", b",,", b";", b" ", b"\x00", b"\"", b"[", b"}"])
            return data[:position] + new + data[position + 1:], f"{old!r} -> {new!r} at {position}"
    return common.mutate_bytes(data, rng)


def ffmpeg(arguments: list[str]) -> None:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *arguments], check=True)


def main() -> int:
    options = common.arguments("data", 1000, __doc__.splitlines()[0], lambda parser: parser.add_argument(
        "--formats", default=",".join(FORMATS), help=f"comma-separated formats (default: all: {','.join(FORMATS)})"))
    binary = common.actionlab_binary(options.actionlab)
    env = common.environment(binary)
    work = common.work_folder(options.work, "data")
    formats = [name for name in options.formats.split(",") if name]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown or not formats:
        sys.exit(f"error: --formats: unknown {unknown} (known: {', '.join(FORMATS)})")
    rng = random.Random(options.seed)
    fixtures = {fmt: Fixture(fmt, work, binary, env, rng) for fmt in formats}
    cache = work / "cache"
    for fmt, fixture in fixtures.items():
        case = work / "baseline" / fmt
        write_case(case, fixture.files)
        for target in fixture.targets:
            manifest = case / "manifest.json5"
            manifest.write_bytes(fixture.manifest(case, target, cache))
            baseline = common.run([str(binary), "validate", "--data", str(manifest)], common.ROOT, env, 300)
            if baseline.status != "accepted":
                sys.exit(f"error: the unmutated {fmt} case {target} is not accepted:\n{baseline.stderr}")
    tally = common.Tally("data", work, options.count * len(fixtures))
    cases = []
    for fmt, fixture in fixtures.items():
        for number in range(options.count):
            files, target, description = fixture.case_files(rng)
            cases.append((fmt, number, files, target, f"{fmt}: {description}"))

    def job(case) -> None:
        fmt, number, files, target, description = case
        folder = work / "cases" / f"{fmt}-{number}"
        write_case(folder, files)
        manifest = folder / "manifest.json5"
        manifest.write_bytes(fixtures[fmt].manifest(folder, target, cache))
        command = [str(binary), "validate", "--data", str(manifest)]
        timeout = options.timeout * (3 if fmt in ("video", "montage") else 1)
        outcome = common.run(command, common.ROOT, env, timeout)
        tally.count(f"{fmt}_{outcome.status}")
        tally.record(outcome, description, [folder], command, names=str(folder / target))
        shutil.rmtree(folder, ignore_errors=True)

    common.run_all(cases, job, options.jobs)
    return tally.finish()


def write_case(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


if __name__ == "__main__":
    sys.exit(main())
