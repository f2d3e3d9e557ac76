#!/usr/bin/env python3
"""Fuzzes ActionLab's feature cache (issue 15, item 1): mutated cache entries against a real run.

    .venv/bin/python scripts/fuzz-cache.py                        # 500 cases, seed 1
    .venv/bin/python scripts/fuzz-cache.py --count 50 --seed 7 --actionlab .build/debug/actionlab

A reference run imports GunPoint (UEA/UCR, data/uea/GunPoint: 50 TRAIN and 150 TEST recordings)
into a fresh feature cache and trains one epoch of a small MLP: `actionlab run` on a tiny manifest
is the cheapest command that reads every keypoint of the cache and whose output (the trial's
metrics.json: losses and accuracies to 16 digits) changes when one value does. Each case then
copies that cache, mutates one entry (or both) and runs again, killed after --timeout seconds:

  flip            1-8 random bits anywhere in the file
  flip-header     a bit inside the 512-byte checksum header
  flip-metadata   a bit in the HDF5 metadata (between the header and the first data)
  flip-keypoints  a bit inside a keypoints dataset's data (offset found with h5py)
  truncate        the file cut to a random length (zero-length included)
  zero-length     an empty file
  extend          random bytes appended
  zero-range      a random range overwritten with zeros
  nan / inf       NaN, +inf or -inf written into keypoints with h5py (as a user editing it would)
  value           a finite keypoint changed with h5py (a silent change unless the checksum sees it)
  attribute       a root or sequence attribute rewritten with h5py (frame_rate, label, key, ...)
  strip-header    the checksum header removed (an entry as written before checksums)
  swap            the TRAIN and TEST entries exchanged (each file under the other's key)
  duplicate       one entry's bytes copied over the other

A case is a crash when actionlab dies by a signal or exits with status >= 128, a hang when it is
killed at the timeout, and a silent change when it exits 0 with metrics that differ from the
reference and printed no cache warning. It is rejected when actionlab reported the entry
(warning `cache entry ...` or a `feature cache:` error) and accepted when the run was identical
to the reference without a word (a mutation that changed nothing, such as a bit flip that
h5py's write restored). Failing cases are saved under WORK/failures/NNNN/ (mutated entries,
stderr, what was done). A progress line goes to stderr every 50 cases; the last line of stdout is

    {"kind": "cache", "cases": N, "crashes": 0, "hangs": 0, "changed": 0, "rejected": k, "accepted": m,
     "located": l, "exit_1": e, "seconds": t}

(`located`: rejections whose message names the damaged entry; `exit_1`: rejections where the
run failed with status 1 instead of re-importing and finishing.) Options as the other fuzzers
(scripts/fuzz_common.py), plus --data.

Exit status 1 if any case crashed, hung or changed silently. Needs h5py and numpy (run it with
the project's .venv/bin/python) and the GunPoint files that scripts/setup fetches.
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_common as common  # noqa: E402

try:
    import h5py
    import numpy
except ImportError as error:  # pragma: no cover - the message is the point
    sys.exit(f"fuzz-cache: {error}; run with the project's .venv/bin/python (scripts/setup makes it)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = 512
KINDS = [
    ("flip", 3), ("flip-header", 1), ("flip-metadata", 3), ("flip-keypoints", 3), ("truncate", 2), ("zero-length", 1),
    ("extend", 1), ("zero-range", 1), ("nan", 2), ("inf", 1), ("value", 2), ("attribute", 2), ("strip-header", 1),
    ("swap", 1), ("duplicate", 1),
]


def log(message):
    print(f"fuzz-cache: {message}", file=sys.stderr, flush=True)


def manifest(data, cache):
    return json.dumps({
        "name": "fuzz-cache",
        "dataset": {
            "sources": [{"format": "uea", "path": os.path.join(data, "uea/GunPoint/GunPoint_TRAIN.ts")}],
            "labels": {"1": "gun", "2": "point"},
            "validation": {"strategy": "automatic", "fraction": 0.2},
            "test": {"sources": [{"format": "uea", "path": os.path.join(data, "uea/GunPoint/GunPoint_TEST.ts")}]},
        },
        "features": {"layout": "univariate", "frameRate": 30, "cache": cache},
        "windows": {"duration": 5},
        "model": {"kind": "mlp"},
        "training": {"epochs": 1, "seeds": [1]},
    }, indent=1)


def run(actionlab, folder, data, cache, timeout, env):
    """Runs one case in `folder`; returns (status or None for a hang, stderr, metrics text or None)."""
    path = os.path.join(folder, "manifest.json5")
    with open(path, "w") as file:
        file.write(manifest(data, cache))
    output = os.path.join(folder, "out")
    shutil.rmtree(output, ignore_errors=True)
    try:
        done = subprocess.run([actionlab, "run", path, "--output", output], capture_output=True, timeout=timeout, cwd=folder, env=env)
    except subprocess.TimeoutExpired as expired:
        return None, (expired.stderr or b"").decode(errors="replace"), None
    metrics = glob.glob(os.path.join(output, "trials", "*", "metrics.json"))
    text = open(metrics[0]).read() if done.returncode == 0 and metrics else None
    return done.returncode, done.stderr.decode(errors="replace"), text


def dataset_offsets(path):
    """(offset, size) of every contiguous keypoints dataset's data, and the smallest data offset."""
    spans = []
    with h5py.File(path, "r") as file:
        for name in file["sequences"]:
            dataset = file["sequences"][name]["keypoints"]
            if dataset.chunks is None and dataset.id.get_offset() is not None:
                spans.append((dataset.id.get_offset(), dataset.id.get_storage_size()))
            elif dataset.chunks is not None:
                info = dataset.id.get_chunk_info(0)
                spans.append((info.byte_offset, info.size))
    return spans


def mutate(kind, rng, entries, facts):
    """Applies mutation `kind` to the entries (paths) of a case's cache; returns a description."""
    target = rng.choice(entries)
    data = bytearray(open(target, "rb").read())
    name = os.path.basename(target)[:12]

    def write(bytes_):
        with open(target, "wb") as file:
            file.write(bytes_)

    def flip(lo, hi, count=1):
        positions = []
        for _ in range(count):
            position = rng.randrange(lo, hi)
            data[position] ^= 1 << rng.randrange(8)
            positions.append(position)
        write(data)
        return positions

    if kind == "flip":
        return f"{name}: bits flipped at {flip(0, len(data), rng.randint(1, 8))}"
    if kind == "flip-header":
        return f"{name}: header bit flipped at {flip(0, HEADER)}"
    if kind == "flip-metadata":
        first = min(offset for offset, _ in facts[target]["spans"])
        return f"{name}: metadata bit flipped at {flip(HEADER, max(HEADER + 1, first))}"
    if kind == "flip-keypoints":
        offset, size = rng.choice(facts[target]["spans"])
        return f"{name}: keypoint bit flipped at {flip(offset, offset + max(1, size))}"
    if kind == "truncate":
        length = rng.randrange(0, len(data))
        write(data[:length])
        return f"{name}: truncated to {length} of {len(data)} bytes"
    if kind == "zero-length":
        write(b"")
        return f"{name}: zero-length"
    if kind == "extend":
        extra = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4096)))
        write(data + extra)
        return f"{name}: {len(extra)} bytes appended"
    if kind == "zero-range":
        start = rng.randrange(0, len(data))
        end = min(len(data), start + rng.randint(1, 4096))
        data[start:end] = bytes(end - start)
        write(data)
        return f"{name}: bytes {start}..<{end} zeroed"
    if kind in ("nan", "inf", "value"):
        with h5py.File(target, "r+") as file:
            group = file["sequences"][rng.choice(sorted(file["sequences"]))]
            keypoints = group["keypoints"]
            index = tuple(rng.randrange(extent) for extent in keypoints.shape)
            if kind == "nan":
                value = numpy.nan
            elif kind == "inf":
                value = rng.choice([numpy.inf, -numpy.inf])
            else:
                value = float(keypoints[index]) + rng.choice([1e-6, 0.5, -3.0, 1e30])
            keypoints[index] = value
            where = f"{group.name}/keypoints{list(index)}"
        return f"{name}: {where} = {value} (h5py)"
    if kind == "attribute":
        with h5py.File(target, "r+") as file:
            choice = rng.choice(["frame_rate", "layout", "key", "sequence_count", "label", "seq_frame_rate"])
            if choice == "label":
                group = file["sequences"][rng.choice(sorted(file["sequences"]))]
                group.attrs["label"] = rng.choice(["1", "2", "other", ""])
                return f"{name}: {group.name}@label rewritten (h5py)"
            if choice == "seq_frame_rate":
                group = file["sequences"][rng.choice(sorted(file["sequences"]))]
                group.attrs["frame_rate"] = rng.choice([0.0, 15.0, float("nan"), 1e308])
                return f"{name}: {group.name}@frame_rate rewritten (h5py)"
            values = {"frame_rate": rng.choice([0.0, 29.0, float("inf")]), "layout": "vision18", "key": "0" * 64,
                      "sequence_count": numpy.int64(rng.choice([0, 1, 10**6]))}
            file.attrs[choice] = values[choice]
        return f"{name}: @{choice} rewritten (h5py)"
    if kind == "strip-header":
        write(data[HEADER:])
        return f"{name}: checksum header removed"
    if kind == "swap":
        first, second = entries
        aside = first + ".swap"
        os.rename(first, aside)
        os.rename(second, first)
        os.rename(aside, second)
        return "the two entries exchanged"
    if kind == "duplicate":
        other = [entry for entry in entries if entry != target][0]
        shutil.copyfile(other, target)
        return f"{name}: overwritten with {os.path.basename(other)[:12]}"
    raise ValueError(kind)


def main():
    arguments = common.arguments("cache", 500, __doc__.split("\n")[0], lambda parser: parser.add_argument(
        "--data", default=os.environ.get("ACTIONLAB_DATA", os.path.join(ROOT, "data")),
        help="the data folder holding uea/GunPoint (default $ACTIONLAB_DATA, else data/)"))
    actionlab = str(common.actionlab_binary(arguments.actionlab))
    env = common.environment(Path(actionlab))
    data = os.path.abspath(arguments.data)
    if not os.path.exists(os.path.join(data, "uea/GunPoint/GunPoint_TRAIN.ts")):
        sys.exit(f"fuzz-cache: {data}/uea/GunPoint is missing; run scripts/setup or pass --data")
    work = str(common.work_folder(arguments.work, "cache"))
    started = time.monotonic()

    reference_folder = os.path.join(work, "reference")
    os.makedirs(reference_folder)
    reference_cache = os.path.join(reference_folder, "cache")
    status, errors, reference = run(actionlab, reference_folder, data, reference_cache, 60, env)
    if status != 0 or reference is None:
        sys.exit(f"fuzz-cache: the reference run failed (status {status}):\n{errors}")
    status, errors, again = run(actionlab, reference_folder, data, reference_cache, 60, env)
    if again != reference or "cache entry" in errors:
        sys.exit("fuzz-cache: a rerun on the reference cache differs from the first run; results are not comparable")
    entries = sorted(glob.glob(os.path.join(reference_cache, "*", "*.h5")))
    if len(entries) != 2:
        sys.exit(f"fuzz-cache: expected 2 entries in {reference_cache}, found {len(entries)}")
    facts = {os.path.relpath(entry, reference_cache): {"spans": dataset_offsets(entry)} for entry in entries}
    log(f"reference: {actionlab}, 2 entries, {time.monotonic() - started:.1f} s; {arguments.count} cases, seed {arguments.seed}")

    # Every case's mutation is drawn up front from one generator, so a seed gives the same cases
    # whatever --jobs is.
    rng = random.Random(arguments.seed)
    kinds = [kind for kind, weight in KINDS for _ in range(weight)]
    cases = [(case, rng.choice(kinds), random.Random(rng.getrandbits(64))) for case in range(arguments.count)]
    counts = {"crashes": 0, "hangs": 0, "changed": 0, "rejected": 0, "accepted": 0, "located": 0, "exit_1": 0}
    lock = threading.Lock()

    def job(item):
        case, kind, case_rng = item
        case_folder = os.path.join(work, f"case-{case}")
        os.makedirs(case_folder)
        cache = os.path.join(case_folder, "cache")
        shutil.copytree(reference_cache, cache)
        case_entries = [os.path.join(cache, relative) for relative in facts]
        case_facts = {os.path.join(cache, relative): value for relative, value in facts.items()}
        try:
            description = mutate(kind, case_rng, case_entries, case_facts)
        except (OSError, KeyError, ValueError) as error:  # h5py could not open an already odd file
            description = f"{kind}: mutation failed ({error})"
        mutated = {path: open(path, "rb").read() if os.path.exists(path) else b"" for path in case_entries}
        status, errors, metrics = run(actionlab, case_folder, data, cache, arguments.timeout, env)
        warned = "cache entry '" in errors or "feature cache:" in errors
        if status is None:
            verdict = "hangs"
        elif status < 0 or status >= 128:
            verdict = "crashes"
        elif status == 0 and metrics != reference and not warned:
            verdict = "changed"
        elif warned or status != 0:
            verdict = "rejected"
        else:
            verdict = "accepted"
        with lock:
            counts[verdict] += 1
            if verdict == "rejected":
                counts["exit_1"] += status != 0
                # The warning or error names the damaged entry's file.
                counts["located"] += any(os.path.basename(path)[:16] in errors for path in case_entries)
            if verdict in ("crashes", "hangs", "changed"):
                failure = os.path.join(work, "failures", f"{case:04d}")
                os.makedirs(failure)
                for path, content in mutated.items():
                    with open(os.path.join(failure, os.path.basename(path)), "wb") as file:
                        file.write(content)
                with open(os.path.join(failure, "case.txt"), "w") as file:
                    file.write(f"{verdict}: {kind}: {description}\nstatus: {status}\n\n{errors}")
                log(f"case {case}: {verdict} ({kind}: {description}), status {status}; saved in {failure}")
            done = sum(counts[key] for key in ("crashes", "hangs", "changed", "rejected", "accepted"))
            if done % 50 == 0 or done == arguments.count:
                log(f"{done}/{arguments.count} cases, {time.monotonic() - started:.0f} s: "
                    + ", ".join(f"{value} {key}" for key, value in counts.items()))
        shutil.rmtree(case_folder, ignore_errors=True)

    common.run_all(cases, job, arguments.jobs)
    result = {"kind": "cache", "cases": arguments.count, **counts, "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(result))
    return 1 if counts["crashes"] or counts["hangs"] or counts["changed"] else 0


if __name__ == "__main__":
    sys.exit(main())
