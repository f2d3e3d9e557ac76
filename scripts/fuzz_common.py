"""Shared machinery of ActionLab's fuzzers (scripts/fuzz-*.py, driven by scripts/fuzz).

Each fuzzer makes mutated inputs, runs the `actionlab` binary on each in its own process with a
time limit, and sorts the outcome:

- accepted: exit status 0;
- rejected: exit status 1 or 2 with an `error:` message on standard error (the behaviour wanted
  for bad input);
- crash: killed by a signal, an exit status of 128 or more, or a non-zero exit with no `error:`
  line (a trap, an abort, a segmentation fault, a message-less failure);
- hang: still running after the time limit (10 s unless told), then killed;
- changed: a fuzzer-specific check found a silently different result (accepted, no warning, but
  not what the unmutated input gives).

Every crash, hang and change is saved under WORK/failures/STATUS-N/ with the input, the command
and its output, so it can be replayed. The last line a fuzzer prints is one JSON object:
{"kind", "cases", "accepted", "rejected", "crashes", "hangs", "changed", "located", "seconds"}
and its exit status is 1 when crashes + hangs + changed > 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCATION = re.compile(r":\d+:\d+: ")


def arguments(kind: str, default_count: int, description: str, extra=None) -> argparse.Namespace:
    """Parses the options every fuzzer shares; `extra(parser)` adds a fuzzer's own."""
    parser = argparse.ArgumentParser(prog=f"fuzz-{kind}.py", description=description)
    parser.add_argument("--count", type=int, default=default_count, help="cases to run")
    parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same cases)")
    parser.add_argument("--actionlab", default=None, help="the actionlab binary (default: release, else debug build)")
    parser.add_argument("--work", default=None, help="scratch folder (default: a fresh folder in /tmp)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases run at once")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a case is a hang")
    if extra:
        extra(parser)
    options = parser.parse_args()
    if options.count < 1:
        parser.error("--count must be at least 1")
    return options


def actionlab_binary(given: str | None) -> Path:
    """The binary to fuzz: the given path, else the release build, else the debug build."""
    candidates = [Path(given)] if given else [ROOT / ".build/release/actionlab", ROOT / ".build/debug/actionlab"]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate.resolve()
    sys.exit(f"error: no actionlab binary at {', '.join(map(str, candidates))}; build it with `swift build -c release --product actionlab`")


def environment(binary: Path) -> dict[str, str]:
    """The environment of every case: the OpenBLAS kernel fixed, so `actionlab` does not relaunch
    itself at start-up (half the time of a short case), and MediaPipe kept quiet."""
    env = dict(os.environ)
    if "OPENBLAS_CORETYPE" not in env:
        info = subprocess.run([str(binary), "info"], capture_output=True, text=True, timeout=60)
        for line in info.stdout.splitlines():
            if line.startswith("openblas kernel: "):
                env["OPENBLAS_CORETYPE"] = line.split(": ", 1)[1].strip()
    return env


def work_folder(given: str | None, kind: str) -> Path:
    """The scratch folder, created empty."""
    if given:
        folder = Path(given).resolve() / kind
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder
    import tempfile
    return Path(tempfile.mkdtemp(prefix=f"actionlab-fuzz-{kind}-"))


@dataclass
class Outcome:
    """What one run of `actionlab` did."""
    status: str  # accepted, rejected, crash, hang
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> Outcome:
    """Runs one case in its own process group and sorts its outcome."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return Outcome("hang", None, decode(stdout), decode(stderr), time.monotonic() - start)
    seconds = time.monotonic() - start
    code = process.returncode
    out, err = decode(stdout), decode(stderr)
    if code == 0:
        status = "accepted"
    elif code in (1, 2) and "error:" in err:
        status = "rejected"
    else:
        status = "crash"
    return Outcome(status, code, out, err, seconds)


def reason(stderr: str) -> str:
    """The first error line with paths, positions and numbers blanked, to group rejections."""
    lines = stderr.splitlines()
    index = next((number for number, line in enumerate(lines) if "error:" in line), None)
    if index is None:
        line = stderr[:200]
    else:
        line = lines[index] + (" " + lines[index + 1] if lines[index].endswith(":") and index + 1 < len(lines) else "")
    line = re.sub(r"/[^\s:,'\"]+", "PATH", line.split("error:", 1)[-1])
    return re.sub(r"\d+(\.\d+)?", "N", line).strip()[:110]


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


@dataclass
class Tally:
    """Counts outcomes, saves failures, prints progress and the final JSON line."""
    kind: str
    work: Path
    total: int
    started: float = field(default_factory=time.monotonic)
    counts: dict[str, int] = field(default_factory=lambda: {"accepted": 0, "rejected": 0, "crash": 0, "hang": 0, "changed": 0})
    located: int = 0
    saved: int = 0
    longest_error: int = 0
    extra: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    longest_example: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)

    def record(self, outcome: Outcome, case: str, inputs: list[Path], command: list[str], changed: str | None = None,
               names: str | None = None) -> None:
        """Counts one case; a crash, hang or change is saved with its inputs. A rejection is
        `located` when its message holds `names` (the mutated file's path), or, without it, a
        file:line:column position."""
        with self.lock:
            status = "changed" if changed and outcome.status == "accepted" else outcome.status
            self.counts[status] += 1
            if outcome.status == "rejected":
                self.reasons[reason(outcome.stderr)] = self.reasons.get(reason(outcome.stderr), 0) + 1
                message = outcome.stderr[outcome.stderr.find("error:"):]
                if (names in message) if names else LOCATION.search(message):
                    self.located += 1
                longest = max(outcome.stderr.splitlines(), key=len, default="")
                if len(longest) > self.longest_error:
                    self.longest_error, self.longest_example = len(longest), f"{case}: {longest[:300]}"
            if status in ("crash", "hang", "changed"):
                self.save(status, outcome, case, inputs, command, changed)
            done = sum(self.counts.values())
            if done % max(1, self.total // 10) == 0 or status in ("crash", "hang", "changed"):
                note = f"  [{status}: {case}]" if status in ("crash", "hang", "changed") else ""
                print(f"{self.kind}: {done}/{self.total} {self.summary_counts()}{note}", file=sys.stderr, flush=True)

    def count(self, name: str) -> None:
        with self.lock:
            self.extra[name] = self.extra.get(name, 0) + 1

    def save(self, status: str, outcome: Outcome, case: str, inputs: list[Path], command: list[str], changed: str | None) -> None:
        with self.lock:
            self.saved += 1
            folder = self.work / "failures" / f"{status}-{self.saved}"
        folder.mkdir(parents=True, exist_ok=True)
        for item in inputs:
            if item.is_dir():
                shutil.copytree(item, folder / item.name, dirs_exist_ok=True)
            elif item.exists():
                shutil.copy2(item, folder / item.name)
        (folder / "case.txt").write_text(
            f"status: {status}\nreturncode: {outcome.returncode}\ncase: {case}\n"
            f"command: {' '.join(command)}\n" + (f"changed: {changed}\n" if changed else "")
            + f"--- stdout\n{outcome.stdout[-4000:]}\n--- stderr\n{outcome.stderr[-8000:]}\n")

    def summary_counts(self) -> str:
        return " ".join(f"{name} {value}" for name, value in self.counts.items())

    def finish(self) -> int:
        """Prints the final JSON line and returns the exit status."""
        result = {"kind": self.kind, "cases": sum(self.counts.values()), "accepted": self.counts["accepted"],
                  "rejected": self.counts["rejected"], "crashes": self.counts["crash"], "hangs": self.counts["hang"],
                  "changed": self.counts["changed"], "located": self.located,
                  "longest_error_line": self.longest_error, **self.extra,
                  "seconds": round(time.monotonic() - self.started, 1)}
        commonest = sorted(self.reasons.items(), key=lambda item: -item[1])[:12]
        print(f"{self.kind}: commonest rejections:", file=sys.stderr)
        for text, number in commonest:
            print(f"  {number:6d}  {text}", file=sys.stderr)
        if self.longest_example:
            print(f"{self.kind}: longest error line ({self.longest_error} characters): {self.longest_example}", file=sys.stderr)
        if result["crashes"] + result["hangs"] + result["changed"]:
            print(f"{self.kind}: failures saved under {self.work / 'failures'}", file=sys.stderr)
        print(json.dumps(result), flush=True)
        return 1 if result["crashes"] + result["hangs"] + result["changed"] else 0


def run_all(cases, job, jobs: int) -> None:
    """Runs job(case) for every case, `jobs` at a time (each case is its own process)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for future in concurrent.futures.as_completed([pool.submit(job, case) for case in cases]):
            future.result()


# Mutation building blocks ------------------------------------------------------------------

EXTREME_NUMBERS = [
    "0", "-0", "-1", "1", "2", "0.5", "1e-7", "1e-45", "1e-46", "1e-320", "3.4e38", "3.5e38", "1e18", "5e18", "1e19",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "2147483648",
    "4294967296", "65536", "1e9", "1e12", "1e308", "-1e308", "1e400", "NaN", "Infinity", "-Infinity", "0x7fffffff",
    "1.0000000000000002", "123456789012345678901234567890",
]

WEIRD_STRINGS = [
    "", " ", "\u00e9", "\U0001F642", "\\u0000", "\\ud800", "../../../etc/passwd", "/", "/dev/null", "/proc/self/mem",
    "a\\nb", "\\t", "NUL\\u0000byte", "\ufeffbom", "x" * 300, "con", "*", "**/*", "[", "?", "~", "$HOME", "%s%n",
]


def mutate_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One byte-level mutation: flip, insert, delete, duplicate, truncate or overwrite a run."""
    if not data:
        return bytes([rng.randrange(256)]), "insert into empty"
    choice = rng.randrange(7)
    position = rng.randrange(len(data))
    if choice == 0:
        bit = 1 << rng.randrange(8)
        return data[:position] + bytes([data[position] ^ bit]) + data[position + 1:], f"flip bit {bit} at {position}"
    if choice == 1:
        return data[:position] + bytes([rng.randrange(256)]) + data[position:], f"insert byte at {position}"
    if choice == 2:
        length = rng.randint(1, min(64, len(data) - position))
        return data[:position] + data[position + length:], f"delete {length} at {position}"
    if choice == 3:
        length = rng.randint(1, min(256, len(data) - position))
        return data[:position] + data[position:position + length] * rng.randint(2, 20) + data[position + length:], f"repeat {length} at {position}"
    if choice == 4:
        return data[:position], f"truncate at {position}"
    if choice == 5:
        length = rng.randint(1, min(16, len(data) - position))
        return data[:position] + bytes(rng.randrange(256) for _ in range(length)) + data[position + length:], f"overwrite {length} at {position}"
    special = rng.choice([b"\x00", b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00", b"\xef\xbb\xbf", b"\r", b"\n" * 50])
    return data[:position] + special + data[position + len(special):], f"overwrite {special!r} at {position}"


NUMBER = re.compile(rb"(?<![A-Za-z_\"])-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def mutate_number(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Replaces one number in a text file with an extreme one."""
    numbers = list(NUMBER.finditer(data))
    if not numbers:
        return mutate_bytes(data, rng)
    match = rng.choice(numbers)
    value = rng.choice(EXTREME_NUMBERS).encode()
    return data[:match.start()] + value + data[match.end():], f"number {match.group().decode()} -> {value.decode()} at {match.start()}"
