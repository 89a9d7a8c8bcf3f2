"""Every code snippet of the two seed articles, run under PyTorch and mini_autograd.

The snippets are copied verbatim from ``seeds/*.txt`` (Chinese articles that
the course follows).  ``test_snippet_is_verbatim`` proves each copy still
appears in its seed, and ``test_every_seed_code_line_is_covered`` proves no
code line of a seed was left out, so this list cannot drift from the articles.

Each snippet must print under mini_autograd exactly what it prints under
PyTorch (memory addresses masked).  Separately, the ``# tensor(...)`` comments
in the seeds are checked against what PyTorch really prints: PyTorch is the
reference; where a seed comment is abbreviated (``<AddBackward0 ...>``), the
``...`` matches anything.  Known seed mistakes would go in ``SEED_ERRATA``
with what PyTorch prints instead (there are none as of PyTorch 2.13).

Two fragments (the training loop of 000 §6 and §10) use ``model``,
``loss_fn`` and ``optimizer`` without defining them.  They run after a small
explicit prelude (``TRAINING_PRELUDE``: an ``nn.Linear(2, 1)`` with fixed
weights, ``nn.MSELoss``, ``optim.SGD``, three data points) and are followed by
prints of the loss, gradients and parameters, so there is something to
compare.  They are skipped until ``mini_autograd.nn`` and
``mini_autograd.optim`` exist, and turn on by themselves once they do.
"""
import importlib
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    from crosscheck import assert_same, mask, run_snippet
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, mask, run_snippet

REPO = Path(__file__).resolve().parents[1]
SEED_DIRS = [REPO / "seeds", REPO.parent / "shared" / "seeds", Path("/work/shared/seeds")]
SEED_FILES = {"003": "003_ce2c35bde80cdfc9.txt", "000": "000_5d4cdfa747f15147.txt"}


def seed_text(seed: str) -> str:
    for folder in SEED_DIRS:
        path = folder / SEED_FILES[seed]
        if path.is_file():
            return path.read_text(encoding="utf-8").replace("\r\n", "\n")
    pytest.skip(f"seed article {SEED_FILES[seed]} not found in {[str(d) for d in SEED_DIRS]}")


@dataclass(frozen=True)
class Snippet:
    id: str
    seed: str          # "003" or "000"
    section: str       # the seed's heading
    code: str          # verbatim from the seed
    prelude: str = ""  # run first (another seed snippet, or TRAINING_PRELUDE)
    epilogue: str = ""  # run after (prints, for fragments that print nothing)
    needs_nn: bool = False

    @property
    def program(self) -> str:
        return "\n".join(part for part in (self.prelude, self.code, self.epilogue) if part)


def verbatim(text: str) -> str:
    """A snippet as it stands in the seed (the literal below starts with a newline)."""
    return textwrap.dedent(text).strip("\n")


# Not in the seeds: what the training fragments need to run.  Fixed weights
# (nn.Linear's random init differs between libraries), three points of y = x1 - x0/2.
TRAINING_PRELUDE = verbatim("""
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(2, 1)
model.weight = nn.Parameter(torch.tensor([[0.5, -0.3]]))
model.bias = nn.Parameter(torch.tensor([0.1]))
loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
y = torch.tensor([[1.5], [2.5], [3.5]])
""")

TRAINING_EPILOGUE = verbatim("""
print(loss)
print(model.weight.grad, model.bias.grad)
print(model.weight)
print(model.bias)
""")

S003_30_SECONDS = verbatim("""
import torch

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)

z = x ** 2 + y * 3   # z = x² + 3y
z.backward()

print(x.grad)  # tensor(4.)  dz/dx = 2x = 4
print(y.grad)  # tensor(3.)  dz/dy = 3
""")

S003_GRAPH = verbatim("""
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)  # tensor(27., grad_fn=<MeanBackward0>)
""")

S003_GRAD_FN = verbatim("""
print(y.grad_fn)  # <AddBackward0 object at 0x...>
print(z.grad_fn)  # <MulBackward0 object at 0x...>
""")

S003_BACKWARD = verbatim("""
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
# tensor([[4.5000, 4.5000],
#         [4.5000, 4.5000]])
""")

S003_NON_SCALAR = verbatim("""
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.backward(torch.ones_like(y))
print(x.grad)  # tensor([2., 4., 6.])  = 2x
""")

S000_REQUIRES_GRAD = verbatim("""
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
y.backward()
print(x.grad) # tensor(7.)
""")

S000_GRAD_FN = verbatim("""
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
print(y.grad_fn)
# <AddBackward0 ...>
""")

S000_TRAINING_STEP = verbatim("""
# 典型训练片段
optimizer.zero_grad() # 清空上一轮梯度
pred = model(x) # 前向：构建计算图
loss = loss_fn(pred, y) # loss：图的根节点
loss.backward() # 反向：计算梯度
optimizer.step() # 更新：优化器修改参数
""")

S000_ACCUMULATION = verbatim("""
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad) # tensor(4.)
y = x * x
y.backward()
print(x.grad) # tensor(8.)，不是 4，因为累加了
""")

S000_ZERO_GRAD = verbatim("""
optimizer.zero_grad()
loss.backward()
optimizer.step()
""")

SNIPPETS = [
    Snippet("003_30_second_example", "003", "先看一个 30 秒的例子", S003_30_SECONDS),
    Snippet("003_graph_mean", "003", "计算图：PyTorch 的”草稿纸”", S003_GRAPH),
    # continues the previous snippet: y and z are the ones(2, 2) example's
    Snippet("003_graph_grad_fn", "003", "计算图：PyTorch 的”草稿纸”", S003_GRAD_FN,
            prelude=S003_GRAPH),
    Snippet("003_backward_classic", "003", "backward()：从结果往回推", S003_BACKWARD),
    Snippet("003_non_scalar_gradient", "003", "非标量怎么处理", S003_NON_SCALAR),
    Snippet("000_s3_requires_grad", "000", "3. requires_grad：自动求导的开关", S000_REQUIRES_GRAD),
    Snippet("000_s4_grad_fn", "000", "4. grad_fn：反向图的入口", S000_GRAD_FN),
    Snippet("000_s6_training_step", "000", "6. backward() 到底做了什么", S000_TRAINING_STEP,
            prelude=TRAINING_PRELUDE, epilogue=TRAINING_EPILOGUE, needs_nn=True),
    Snippet("000_s10_accumulation", "000", "10. 为什么梯度会累加", S000_ACCUMULATION),
    # stale gradients from an earlier backward are in .grad when the fragment starts
    Snippet("000_s10_zero_grad", "000", "10. 为什么梯度会累加", S000_ZERO_GRAD,
            prelude=TRAINING_PRELUDE + "\nloss_fn(model(x), y).backward()\nloss = loss_fn(model(x), y)",
            epilogue=TRAINING_EPILOGUE, needs_nn=True),
]

# seed id -> {snippet id: (what the seed's comment says, what PyTorch prints)}.
# Empty: every full-repr comment in both seeds matches PyTorch 2.13.
SEED_ERRATA: dict = {}


def nn_missing() -> str | None:
    """Why the training fragments cannot run under mini_autograd yet (None: they can).

    Only a missing ``mini_autograd.nn`` / ``mini_autograd.optim`` counts; a
    mini_autograd that fails to import, or an nn that raises, is a failure.
    """
    importlib.import_module("mini_autograd")
    for name in ("mini_autograd.nn", "mini_autograd.optim"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                return f"{name} not written yet (the fragment needs nn.Linear, nn.MSELoss, optim.SGD)"
            raise
    return None


def require_nn():
    reason = nn_missing()
    if reason:
        pytest.skip(reason)


def params(snippets):
    return [pytest.param(s, id=s.id) for s in snippets]


# ---------------------------------------------------------------------------
# the list is the seeds' code


@pytest.mark.parametrize("snippet", params(SNIPPETS))
def test_snippet_is_verbatim(snippet):
    assert snippet.code in seed_text(snippet.seed), (
        f"{snippet.id} is no longer a verbatim block of seed {snippet.seed}")
    assert snippet.section in seed_text(snippet.seed), f"section heading {snippet.section!r} not found"


CODE_LINE = re.compile(
    r"^(import |from |print\(|[A-Za-z_][\w.]*(\[[^\]]*\])?\s*(=|\+=|-=|\()|[A-Za-z_][\w.]*\.\w+\()")


def seed_code_lines(text: str) -> list[str]:
    """Lines of a seed that are Python: ASCII before any '#', shaped like a statement."""
    lines = []
    for line in text.splitlines():
        before_comment = line.split("#", 1)[0]
        if before_comment.strip() and before_comment.isascii() and CODE_LINE.match(line):
            lines.append(line)
    return lines


@pytest.mark.parametrize("seed", sorted(SEED_FILES))
def test_every_seed_code_line_is_covered(seed):
    covered = {line for s in SNIPPETS if s.seed == seed for line in s.code.splitlines()}
    code_lines = seed_code_lines(seed_text(seed))
    assert len(code_lines) >= 10, "the code-line detector found almost nothing: seed format changed?"
    missing = [line for line in code_lines if line not in covered]
    assert not missing, f"seed {seed} code lines not in any curated snippet: {missing}"


# ---------------------------------------------------------------------------
# mini_autograd prints what PyTorch prints


@pytest.mark.parametrize("snippet", params(SNIPPETS))
def test_seed_snippet_same_as_torch(snippet):
    if snippet.needs_nn:
        require_nn()
    assert_same(snippet.program)


@pytest.mark.parametrize("seed", sorted(SEED_FILES))
def test_seed_article_as_one_session(seed):
    """A reader typing every snippet of an article, in order, into one notebook."""
    parts = [s for s in SNIPPETS if s.seed == seed]
    if nn_missing():  # the rest of the article still runs; the fragments join later
        parts = [s for s in parts if not s.needs_nn]
    program = []
    for s in parts:
        if s.prelude and s.prelude not in (p.code for p in parts):
            program.append(s.prelude)
        program.append(s.code)
        if s.epilogue:
            program.append(s.epilogue)
    assert_same("\n".join(program))


# ---------------------------------------------------------------------------
# the seeds' "# tensor(...)" comments against real PyTorch


def _leading_repr(comment: str) -> str:
    """The printed value at the start of a comment: 'tensor(4.)  dz/dx = 4' -> 'tensor(4.)'."""
    depth = 0
    for i, ch in enumerate(comment):
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
            if depth == 0:
                return comment[: i + 1]
    return comment.strip()


def expected_from_comments(code: str) -> list[str] | None:
    """What the seed says each print shows, in order; None if some print has no comment.

    A print's expectation is its trailing comment (the leading repr of it), or
    the comment-only lines right below it (a multi-line repr, '# ' removed).
    """
    lines = code.splitlines()
    expected = []
    for i, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        if "#" in line:
            expected.append(_leading_repr(line.split("#", 1)[1].strip()))
            continue
        block = []
        for following in lines[i + 1:]:
            if not following.startswith("#"):
                break
            block.append(following[2:] if following.startswith("# ") else following[1:])
        if not block:
            return None
        expected.append("\n".join(block))
    return expected


def comment_matches(expected: str, actual: str) -> bool:
    """Equal, except that '...' in the seed's comment stands for anything."""
    pattern = re.escape(expected).replace(re.escape("..."), ".*")
    return re.fullmatch(pattern, actual, flags=re.DOTALL) is not None


COMMENTED = [s for s in SNIPPETS if not s.epilogue and expected_from_comments(s.program)]


@pytest.mark.parametrize("snippet", params(COMMENTED))
def test_seed_comments_match_torch(snippet):
    torch = pytest.importorskip("torch")
    expected = expected_from_comments(snippet.program)
    outcome = run_snippet(snippet.program, torch)
    assert outcome["error"] is None, outcome["traceback"]
    printed = outcome["stdout"]
    # Split the output into one chunk per print: each print's chunk has as many
    # lines as its expectation (all of the seed's prints show tensors or nodes).
    lines = printed.rstrip("\n").split("\n")
    chunks, at = [], 0
    for exp in expected:
        n = exp.count("\n") + 1
        chunks.append("\n".join(lines[at: at + n]))
        at += n
    assert at == len(lines), f"PyTorch printed more than the seed shows:\n{printed}"
    errata = SEED_ERRATA.get(snippet.id, {})
    for exp, got in zip(expected, chunks, strict=True):
        if exp in errata:
            assert errata[exp] == got, f"erratum for {exp!r} is stale: PyTorch prints {got!r}"
            continue
        assert comment_matches(mask(exp), got), (
            f"seed {snippet.seed} ({snippet.id}) says {exp!r}, PyTorch prints {got!r}")


def test_comment_parsing():
    """The comment reader itself: trailing, multi-line, abbreviated, and with prose after."""
    assert expected_from_comments(S003_30_SECONDS) == ["tensor(4.)", "tensor(3.)"]
    assert expected_from_comments(S003_BACKWARD) == [
        "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"]
    assert expected_from_comments(S000_GRAD_FN) == ["<AddBackward0 ...>"]
    assert expected_from_comments(S000_ACCUMULATION) == ["tensor(4.)", "tensor(8.)"]
    assert expected_from_comments(S003_NON_SCALAR) == ["tensor([2., 4., 6.])"]
    assert expected_from_comments("print(x)\ny = 1") is None
    assert comment_matches("<AddBackward0 ...>", "<AddBackward0 object at 0x...>")
    assert not comment_matches("tensor(4.)", "tensor(4.5000)")
    assert len(COMMENTED) == 8
