#!/usr/bin/env python3
"""Fuzzes ActionLab's manifest reading: mutated copies of experiments/*.json5 go to
`actionlab validate`, and a share of those it accepts, made from a tiny manifest, go on to
`actionlab run`, which must then train or fail cleanly, never crash (what `validate` accepts,
`run` must be able to do: a clean failure of `run` after an accepted `validate` is counted as a
`validate_gap`, saved for reading, and listed in the summary).

    scripts/fuzz-manifests.py --count 10000 [--runs 200] [--seed 1] [--jobs 2] [--actionlab BIN]

Mutations: extreme numbers (0, -1, 1e308, 5e18, 1e400, NaN, …), odd strings (empty, NUL
escapes, unpaired surrogates, paths out of the tree, 1–10 MB), deleted, repeated and swapped
lines, keys from other manifests inserted with odd values, deep nesting, a byte-order mark,
invalid UTF-8 and raw byte edits; one to three per case. See scripts/fuzz_common.py for how
outcomes are sorted.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz_common as common  # noqa: E402

KEY = re.compile(rb"^\s*\"?([A-Za-z_][A-Za-z0-9_.]*)\"?\s*:", re.M)
STRING = re.compile(rb"\"(?:[^\"\\\n]|\\.)*\"")
VALUES = [b"null", b"true", b"false", b"[]", b"{}", b"[1, 2]", b"\"\"", b"\"none\"", b"{ kind: \"jitter\" }",
          b"[{ format: \"csv\", path: \"/\" }]", b"-1", b"1e308", b"5e18"]


def seeds() -> list[Path]:
    found = sorted(common.ROOT.glob("experiments/**/*.json5"))
    if not found:
        sys.exit("error: no manifests under experiments/")
    return found


def tiny_manifest(work: Path) -> bytes:
    """A manifest that trains in about a second, on a tiny synthetic dataset."""
    return f"""{{
  name: "fuzz-run",
  dataset: {{
    sources: [{{ format: "csv", path: "{work / 'synth'}" }}],
    validation: {{ strategy: "automatic", fraction: 0.3 }},
  }},
  features: {{ layout: "vision18", frameRate: 30 }},
  windows: {{ duration: 1, stride: 10 }},
  augmentations: {{ noise: [{{ kind: "jitter", standardDeviation: 0.01 }}] }},
  model: {{ kind: "tcn" }},
  training: {{ epochs: 2, batchSize: 8, learningRate: 0.002, seeds: [1], gradientClipNorm: 1 }},
  sweep: {{ grid: {{ augmentation: ["none", "noise"] }} }},
  output: {{ directory: "{work / 'runs'}" }},
}}
""".encode()


def mutate(data: bytes, keys: list[bytes], rng: random.Random) -> tuple[bytes, str]:
    """One manifest mutation."""
    lines = data.split(b"\n")
    choice = rng.randrange(12)
    if choice in (0, 1, 2):
        return common.mutate_number(data, rng)
    if choice == 3:
        strings = list(STRING.finditer(data))
        if strings:
            match = rng.choice(strings)
            value = rng.choice(common.WEIRD_STRINGS)
            if rng.random() < 0.02:
                value = "y" * rng.choice([1_000_000, 10_000_000])
            encoded = b"\"" + value.encode("utf-8", errors="surrogatepass") + b"\""
            return data[:match.start()] + encoded + data[match.end():], f"string {match.group()[:30]!r} -> {value[:30]!r} (len {len(value)})"
    if choice == 4 and len(lines) > 1:
        index = rng.randrange(len(lines))
        return b"\n".join(lines[:index] + lines[index + 1:]), f"delete line {index + 1}"
    if choice == 5:
        index = rng.randrange(len(lines))
        return b"\n".join(lines[:index + 1] + [lines[index]] + lines[index + 1:]), f"repeat line {index + 1}"
    if choice == 6 and len(lines) > 2:
        a, b = rng.sample(range(len(lines)), 2)
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines), f"swap lines {a + 1} and {b + 1}"
    if choice == 7 and keys:
        braces = [match.end() for match in re.finditer(rb"\{", data)]
        if braces:
            position = rng.choice(braces)
            key, value = rng.choice(keys), rng.choice(VALUES + [n.encode() for n in common.EXTREME_NUMBERS[:8]])
            return data[:position] + b" " + key + b": " + value + b", " + data[position:], f"insert {key.decode()}: {value.decode()}"
    if choice == 8:
        numbers = list(common.NUMBER.finditer(data))
        if numbers:
            match = rng.choice(numbers)
            depth = rng.choice([64, 1000, 100_000])
            return data[:match.start()] + b"[" * depth + b"1" + b"]" * depth + data[match.end():], f"nesting {depth} deep"
    if choice == 9:
        prefix = rng.choice([b"\xef\xbb\xbf", b"\xfe\xff", b"\x00", b"\xff"])
        return prefix + data, f"prefix {prefix!r}"
    if choice == 10:
        position = rng.randrange(len(data) + 1)
        insert = rng.choice([b"\x00", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\r", b"\t", b"/*", b"//", b"\\"])
        return data[:position] + insert + data[position:], f"insert {insert!r} at {position}"
    return common.mutate_bytes(data, rng)


def main() -> int:
    options = common.arguments("manifests", 10_000, __doc__.splitlines()[0])
    binary = common.actionlab_binary(options.actionlab)
    env = common.environment(binary)
    work = common.work_folder(options.work, "manifests")
    runs = options.count // 20
    synth = subprocess.run([str(binary), "synth", "--output", str(work / "synth"), "--classes", "squat,idle",
                            "--sequences-per-class", "6", "--seed", "1", "--duration", "2"],
                           capture_output=True, text=True, env=env)
    if synth.returncode != 0:
        sys.exit(f"error: synth failed: {synth.stderr}")
    tiny = tiny_manifest(work)
    baseline_file = work / "tiny.json5"
    baseline_file.write_bytes(tiny)
    baseline = common.run([str(binary), "validate", str(baseline_file)], common.ROOT, env, 60)
    if baseline.status != "accepted":
        sys.exit(f"error: the unmutated tiny manifest is not accepted:\n{baseline.stderr}")
    sources = [(path, path.read_bytes()) for path in seeds()]
    keys = sorted({match.group(1) for _, data in sources for match in KEY.finditer(data)})
    tally = common.Tally("manifests", work, options.count)
    rng = random.Random(options.seed)
    cases = []
    for number in range(options.count):
        trains = number < runs
        name, data = ("tiny.json5", tiny) if trains else rng.choice(sources)
        descriptions = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data, description = mutate(data, keys, rng)
            descriptions.append(description)
        label = name if isinstance(name, str) else name.relative_to(common.ROOT).as_posix()
        cases.append((number, f"{label}: {'; '.join(descriptions)}", data, trains))

    def job(case) -> None:
        number, description, data, trains = case
        path = work / f"case-{number}.json5"
        path.write_bytes(data)
        command = [str(binary), "validate", str(path)]
        outcome = common.run(command, common.ROOT, env, options.timeout)
        if outcome.status == "accepted" and trains:
            tally.count("runs")
            command = [str(binary), "run", str(path), "--output", str(work / "runs" / f"case-{number}"), "--jobs", "1"]
            outcome = common.run(command, common.ROOT, env, max(options.timeout, 120))
            if outcome.status == "rejected":
                tally.count("validate_gaps")
                tally.save("gap", outcome, description, [path], command, None)
                outcome = common.Outcome("accepted", 0, outcome.stdout, outcome.stderr, outcome.seconds)
        tally.record(outcome, description, [path], command)
        if outcome.status in ("accepted", "rejected"):
            path.unlink(missing_ok=True)

    common.run_all(cases, job, options.jobs)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
