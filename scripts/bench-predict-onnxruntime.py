"""onnxruntime's classifier rate at batch 1 for scripts/bench-predict, and the agreement check.

    python scripts/bench-predict-onnxruntime.py --onnx model.onnx --windows windows.f32
        --probabilities probabilities.f32 --frames 60 --channels 3 --joints 18
        [--threads 1] [--warmup 0.5] [--seconds 1] [--repeats 5]

Runs the ONNX model ActionLab exported (input `poses` float32 [T, C, J], output
`labelProbabilities` [K]) on the windows `prediction-benchmark` wrote (float32 [N, T, C, J],
little-endian), one window per `InferenceSession.run`, on the CPU execution provider with
intra_op_num_threads = inter_op_num_threads = --threads, sequential execution and the default
graph optimizations (ORT_ENABLE_ALL). After --warmup seconds of untimed runs, each of --repeats
repeats runs for at least --seconds, cycling through the windows. Compares every window's
probabilities with ActionLab's (--probabilities, float32 [N, K]). Prints one JSON line:
windowsPerSecond (median of the repeats), repeats, maxAbsoluteDifference,
maxRelativeDifference (over probabilities), sameTopClass (windows whose argmax agrees),
onnxruntime (version), threads.
"""
import argparse
import json
import statistics
import time

import numpy as np
import onnxruntime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--onnx', required=True)
    parser.add_argument('--windows', required=True)
    parser.add_argument('--probabilities', required=True)
    parser.add_argument('--frames', type=int, required=True)
    parser.add_argument('--channels', type=int, required=True)
    parser.add_argument('--joints', type=int, required=True)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--warmup', type=float, default=0.5)
    parser.add_argument('--seconds', type=float, default=1.0)
    parser.add_argument('--repeats', type=int, default=5)
    arguments = parser.parse_args()

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = arguments.threads
    options.inter_op_num_threads = arguments.threads
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    session = onnxruntime.InferenceSession(arguments.onnx, options, providers=['CPUExecutionProvider'])
    input_name = session.get_inputs()[0].name
    output_name = session.get_outputs()[0].name

    shape = (arguments.frames, arguments.channels, arguments.joints)
    windows = np.fromfile(arguments.windows, dtype='<f4').reshape((-1,) + shape)
    windows = [np.ascontiguousarray(window) for window in windows]
    expected = np.fromfile(arguments.probabilities, dtype='<f4').reshape(len(windows), -1)

    probabilities = np.stack([session.run([output_name], {input_name: window})[0] for window in windows])
    difference = np.abs(probabilities.astype(np.float64) - expected.astype(np.float64))
    relative = difference / np.maximum(np.abs(expected.astype(np.float64)), 1e-30)

    calls = 0

    def run_repeatedly(duration):
        nonlocal calls
        made, start = 0, time.perf_counter()
        while True:
            session.run([output_name], {input_name: windows[calls % len(windows)]})
            calls += 1
            made += 1
            elapsed = time.perf_counter() - start
            if elapsed >= duration:
                return made, elapsed

    run_repeatedly(arguments.warmup)
    rates = []
    for _ in range(arguments.repeats):
        made, elapsed = run_repeatedly(arguments.seconds)
        rates.append(made / elapsed)
    print(json.dumps({
        'windowsPerSecond': statistics.median(rates),
        'repeats': rates,
        'maxAbsoluteDifference': float(difference.max()),
        'maxRelativeDifference': float(relative.max()),
        'sameTopClass': int((probabilities.argmax(axis=1) == expected.argmax(axis=1)).sum()),
        'windows': len(windows),
        'onnxruntime': onnxruntime.__version__,
        'threads': arguments.threads,
    }, sort_keys=True))


if __name__ == '__main__':
    main()
