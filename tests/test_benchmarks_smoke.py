"""The benchmark scripts run (tiny sizes, few repeats): they measure nothing here, they only must not
break, with the comparison engines (PyTorch, DeZero, HIPS autograd) installed or not."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER_ROWS = ("MLP step, tanh,", "MLP step, ReLU,", "spiral step, 2-32-32-2,",
             "-op chain, forward and backward (ratio to PyTorch)",
             "same chain, us per op (forward / backward)")

# Run in a subprocess, makes the named modules unimportable (sys.modules[name] = None: `import` raises
# ImportError and importlib.util.find_spec returns None), as if they were not installed. run_all.py starts
# each script in a process of its own, so the hiding goes through PYTHONPATH's sitecustomize.
SITECUSTOMIZE = """\
import os
import sys
for name in os.environ.get("BENCH_SMOKE_HIDDEN", "").split(","):
    if name:
        sys.modules[name] = None
"""


def run(args, env=None):
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def without(tmp_path, *modules):
    """An environment in which ``modules`` cannot be imported."""
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ, BENCH_SMOKE_HIDDEN=",".join(modules))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    return env


def peers_table(stdout):
    """The peers' table's lines: the header first."""
    section = stdout.split("## The peers", 1)[1]
    return [line for line in section.splitlines() if line.startswith("|")]


def test_run_all_quick():
    stdout = run([os.path.join(ROOT, "benchmarks", "run_all.py"), "--quick"])
    summary = stdout.split("## Summary", 1)[1]
    for name in ("1. MLP training step", "2. per-op overhead", "3. deep chains", "4. peak memory"):
        assert name in summary
    header, *rows = peers_table(stdout)
    cells = [cell.strip() for cell in header.strip("|").split("|")]
    assert cells[:2] == ["workload", "numpy"] and cells[-1] == "mini_autograd"
    assert [cell.split(" ")[0] for cell in cells[2:5]] == ["PyTorch", "DeZero", "HIPS"]
    assert rows[0].startswith("|---")
    for row, name in zip(rows[1:], PEER_ROWS, strict=True):
        assert name in row
        assert len(row.strip("|").split("|")) == len(cells)
    assert "Deep chains, backward(" in stdout.split("## The peers", 1)[1]


def test_run_all_quick_without_the_peers(tmp_path):
    """Without DeZero, HIPS autograd and PyTorch, their cells are "-" and everything else still runs (the
    ratio to PyTorch is "-" throughout)."""
    stdout = run([os.path.join(ROOT, "benchmarks", "run_all.py"), "--quick"],
                 env=without(tmp_path, "dezero", "autograd", "torch"))
    header, _, *rows = peers_table(stdout)
    for row, name in zip(rows, PEER_ROWS, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert name in cells[0] and cells[2:5] == ["-", "-", "-"], row
        assert (cells[-1] == "-") == ("ratio to PyTorch" in name), row


def test_step_breakdown_quick():
    stdout = run([os.path.join(ROOT, "benchmarks", "bench_step_breakdown.py"), "--quick"])
    for phase in ("forward", "backward", "update", "step"):
        assert f"| {phase} |" in stdout
    assert "Function.apply calls" in stdout and "in a tight loop" in stdout
    assert "| Mul.apply(z, wrapped 0.9) |" in stdout and "One engine node" in stdout


@pytest.mark.parametrize("hidden", [(), ("dezero", "autograd", "torch")], ids=["installed", "hidden"])
def test_count_numpy_calls_quick(tmp_path, hidden):
    stdout = run([os.path.join(ROOT, "benchmarks", "count_numpy_calls.py"), "--quick"],
                 env=without(tmp_path, *hidden) if hidden else None)
    assert "| implementation | numpy calls per step |" in stdout
    assert "| numpy |" in stdout and "| mini_autograd |" in stdout
    assert "| mini_autograd: function | calls |" in stdout
    assert "| call site | in | numpy function | calls | line |" in stdout
    assert "| mini_autograd/" in stdout                     # call sites inside the engine
    assert ("| HIPS autograd: function | calls |" in stdout) == (not hidden and _installed("autograd"))


def _installed(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def test_op_costs_quick():
    script = os.path.join(ROOT, "benchmarks", "bench_op_costs.py")
    result = subprocess.run([sys.executable, script, "--quick"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    for step in ("np.errstate", "_record's checks", "validate_outputs", "call_tensor_pre_hooks",
                 "release_variables", "as_tensor_operand", "SavedTensor", "g * b"):
        assert step in result.stdout, step
