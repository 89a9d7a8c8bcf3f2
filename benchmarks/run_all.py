"""Run the benchmarks, each in a fresh process, and print their reports, a summary table and the peers' table.

    python benchmarks/run_all.py [--threads 1] [--quick]

The summary is the table kept in benchmarks/README.md. The peers' table puts mini_autograd beside
numpy, PyTorch, DeZero and HIPS autograd on each workload (``_peers.py``; a missing engine's cells are
"-"), from the same runs: each script times all of them in one process, in turns.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ["bench_mlp_step.py", "bench_small_step.py", "bench_op_overhead.py", "bench_deep_chain.py",
           "bench_memory.py"]
# The peers' table: its columns (results' keys) and the engines among which the best is bolded.
PEER_COLUMNS = ["numpy", "torch", "dezero", "hips_autograd", "mini_autograd"]
PYTHON_ENGINES = ["dezero", "hips_autograd", "mini_autograd"]


def run_script(script, threads, quick):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.json")
        command = [sys.executable, os.path.join(HERE, script), "--threads", str(threads), "--json", path]
        if quick:
            command.append("--quick")
        subprocess.run(command, check=True)
        with open(path) as f:
            return json.load(f)


def summary(results):
    """The results table: one row per benchmark, its target, what was measured, the verdict."""
    mlps, ops, chain, memory = (results[s] for s in ("bench_mlp_step.py", "bench_op_overhead.py",
                                                      "bench_deep_chain.py", "bench_memory.py"))
    rows = []
    for index, mlp in enumerate(mlps.values()):
        number = "1." if index == 0 else f"1{chr(ord('a') + index)}."      # 1., 1b., 1c., ...
        cpu, wall = mlp["cpu_ratio_vs_numpy"]["mini_autograd"], mlp["ratio_vs_numpy"]["mini_autograd"]
        torch_part = (f"; PyTorch {mlp['cpu_ratio_vs_numpy']['torch']:.2f}x"
                      if "torch" in mlp["median_ms"] else "")
        float32 = mlp["float32_functions_cpu_ratio"]
        if float32 is not None:
            torch_part += f"; with numpy's float32 tanh instead of float64 rounding, {float32:.2f}x"
        rows.append((f"{number} MLP training step (batch {mlp['batch']}, {'-'.join(map(str, mlp['sizes']))}, "
                     f"{mlp['activation']}, SGD)", "<= 1.15x numpy",
                     f"{cpu:.2f}x numpy in CPU time, {wall:.2f}x wall "
                     f"({mlp['cpu_median_ms']['mini_autograd']:.2f} ms "
                     f"vs {mlp['cpu_median_ms']['numpy']:.2f} ms{torch_part})", _verdict(cpu <= 1.15)))
    mini = ops["us_per_op"]["mini_autograd"]
    op_target = f"<= {ops['target']:g}x PyTorch"
    if "torch" in ops["us_per_op"]:
        torch = ops["us_per_op"]["torch"]
        rows.append((f"2. per-op overhead ({ops['ops']:,}-op chain, forward + backward)", op_target,
                     f"{mini['total']:.1f} us/op vs PyTorch {torch['total']:.1f} us/op: "
                     f"{ops['cpu_ratio_vs_torch']:.2f}x in CPU time, {ops['ratio_vs_torch']:.2f}x wall",
                     _verdict(ops["cpu_ratio_vs_torch"] <= ops["target"])))
    else:
        rows.append(("2. per-op overhead", op_target, f"{mini['total']:.1f} us/op (PyTorch not installed)",
                     "-"))
    cpu, wall = chain["cpu_ratio_large_middle"], chain["ratio_large_middle"]
    small, middle, large = (str(n) for n in chain["lengths"])
    rows.append((f"3. deep chains ({int(small):,} / {int(middle):,} / {int(large):,} ops)",
                 f"backward({int(large):,}) / backward({int(middle):,}) <= 12",
                 f"{cpu:.2f} in CPU time, {wall:.2f} wall ({chain['median_s'][middle] * 1e3:.0f} ms -> "
                 f"{chain['median_s'][large] * 1e3:.0f} ms wall)", _verdict(cpu <= 12)))
    ratio = memory["peak_ratio"]
    mib = 2 ** 20
    rows.append((f"4. peak memory of one step at batch {memory['batch']}", "<= 1.3x numpy",
                 f"{ratio:.2f}x ({memory['peak_bytes']['mini_autograd'] / mib:.1f} MiB vs "
                 f"{memory['peak_bytes']['numpy'] / mib:.1f} MiB); after backward "
                 f"{memory['after_backward_minus_before_forward']:+d} B vs before forward",
                 _verdict(ratio <= 1.3)))
    header = ["benchmark", "target", "measured", "verdict"]
    lines = ["| " + " | ".join(header) + " |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _verdict(ok):
    return "met" if ok else "**missed**"


def peers_table(results):
    """mini_autograd among the engines: CPU-time medians of paired ratios, workload by workload.

    Rows: the two MLP steps and the spiral step (ratio to the numpy step), the per-op chain (ratio to
    PyTorch) and its microseconds per op, forward / backward (wall-clock, the only clock the split has).
    The fastest of the three engines written in Python (DeZero, HIPS autograd, mini_autograd) is bold.
    """
    import _peers
    mlps, small, ops = (results[s] for s in ("bench_mlp_step.py", "bench_small_step.py",
                                             "bench_op_overhead.py"))
    rows = []                                   # (workload, {column: (value for ranking, text)})
    for activation in ("tanh", "relu"):
        mlp = mlps[activation]
        label = "tanh" if activation == "tanh" else "ReLU"
        rows.append((f"MLP step, {label}, {'-'.join(map(str, mlp['sizes']))}, batch {mlp['batch']} "
                     "(ratio to numpy)", _ratio_cells(mlp["cpu_ratio_vs_numpy"])))
    rows.append((f"spiral step, {'-'.join(map(str, small['sizes']))}, {small['points']} points "
                 "(ratio to numpy)",
                 _ratio_cells(small["cpu_ratio_vs_numpy"])))
    rows.append((f"{ops['ops']:,}-op chain, forward and backward (ratio to PyTorch)",
                 _ratio_cells(ops.get("cpu_ratios_vs_torch", {}))))
    rows.append(("same chain, us per op (forward / backward)",
                 {name: (v["total"], f"{v['forward']:.1f} / {v['backward']:.1f}")
                  for name, v in ops["us_per_op"].items()}))
    header = ["workload"] + [_peers.label(name) if name in _peers.DISTRIBUTIONS else _peers.NAMES[name]
                             for name in PEER_COLUMNS]
    lines = []
    for workload, cells in rows:
        ranked = [name for name in PYTHON_ENGINES if name in cells]
        best = min(ranked, key=lambda name: cells[name][0]) if len(ranked) > 1 else None
        lines.append([workload] + [("-" if name not in cells else
                                    f"**{cells[name][1]}**" if name == best else cells[name][1])
                                   for name in PEER_COLUMNS])
    table = "\n".join(["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
                      + ["| " + " | ".join(line) + " |" for line in lines])
    return table + "\n\n" + _deep_chains_line(results["bench_deep_chain.py"], _peers)


def _ratio_cells(ratios):
    return {name: (ratio, f"{ratio:.2f}") for name, ratio in ratios.items()}


def _deep_chains_line(chain, _peers):
    """The deep chains in one sentence: each engine's backward(large) / backward(middle), or its failures."""
    middle, large = (f"{n:,}" for n in chain["lengths"][1:])
    parts = [f"mini_autograd {chain['cpu_ratio_large_middle']:.2f}"]
    for key, peer in chain.get("peers", {}).items():
        ratio = peer.get("cpu_ratio_large_middle")
        failures = "; ".join(f"{int(n):,} ops fails: {error}" for n, error in peer["failures"].items())
        parts.append(f"{_peers.NAMES[key]} " + (f"{ratio:.2f}" if ratio is not None else "-")
                     + (f" ({failures})" if failures else ""))
    return (f"Deep chains, backward({large}) / backward({middle}) in CPU time (10 is linear): "
            + ", ".join(parts) + ".")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    results = {}
    for script in SCRIPTS:
        print(f"## {script}\n", flush=True)
        results[script] = run_script(script, args.threads, args.quick)
        print(flush=True)
    sys.path.insert(0, HERE)
    import _common
    print("## Summary\n")
    print(_common.environment(args.threads) + "\n")
    print(summary(results))
    print("\n## The peers\n")
    print("CPU time, medians of paired ratios (each script times every engine in one process, in turns); "
          "**bold**: the fastest of the engines written in Python; -: not installed.\n")
    print(peers_table(results))


if __name__ == "__main__":
    main()
