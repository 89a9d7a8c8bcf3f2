"""The benchmark scripts run (tiny sizes, few repeats): they measure nothing here, they only must not
break."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_run_all_quick():
    result = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run_all.py"), "--quick"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.split("## Summary", 1)[1]
    for name in ("1. MLP training step", "2. per-op overhead", "3. deep chains", "4. peak memory"):
        assert name in summary


def test_step_breakdown_quick():
    script = os.path.join(ROOT, "benchmarks", "bench_step_breakdown.py")
    result = subprocess.run([sys.executable, script, "--quick"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    for phase in ("forward", "backward", "update", "step"):
        assert f"| {phase} |" in result.stdout
    assert "Function.apply calls" in result.stdout and "in a tight loop" in result.stdout
    assert "| Mul.apply(z, wrapped 0.9) |" in result.stdout and "One engine node" in result.stdout
