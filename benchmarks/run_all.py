"""Run the four benchmarks, each in a fresh process, and print their reports and a summary table.

    python benchmarks/run_all.py [--threads 1] [--quick]

The summary is the table kept in benchmarks/README.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ["bench_mlp_step.py", "bench_op_overhead.py", "bench_deep_chain.py", "bench_memory.py"]


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
    mlps, ops, chain, memory = (results[s] for s in SCRIPTS)
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


if __name__ == "__main__":
    main()
