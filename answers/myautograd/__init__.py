"""myautograd: your own autograd engine, written chapter by chapter.

Use it as you would PyTorch: ``import myautograd as torch``. Each piece marked
"Step NN.k" is yours to write; the chapter of that number explains it and
checks it. Pieces marked "(given)" are done for you.

中文：myautograd 是你自己的自动求导引擎，一章一章亲手写成。

像用 PyTorch 一样用它：``import myautograd as torch``。文档字符串标着“Step NN.k”（中文部分写作
“步骤 NN.k”）的部分由你来写，编号相同的那一章会讲解它，并检查你写的代码。标着“(given)”（已给出）
的部分已经替你写好。
"""
from mini_autograd._dtype import float32, float64, int64   # (given) dtypes, shared with mini_autograd
                                                           # 中文：（已给出）dtype，与 mini_autograd 共用

from .tensor import Tensor
from .function import AccumulateGrad, Function, Node, compute_requires_grad, gradient_edge
from .grad_mode import is_grad_enabled, no_grad, set_grad_enabled
from .creation import manual_seed, ones, ones_like, randn, tensor, zeros, zeros_like
from . import custom, engine, gradcheck, nn, ops, optim


def exp(t): return t.exp()
def log(t): return t.log()
def tanh(t): return t.tanh()
def sum(t): return t.sum()        # noqa: A001 (torch.sum)
def mean(t): return t.mean()
def matmul(a, b): return a @ b


__all__ = ["Tensor", "Function", "Node", "AccumulateGrad", "compute_requires_grad", "gradient_edge",
           "no_grad", "is_grad_enabled", "set_grad_enabled", "log", "tanh", "custom", "gradcheck", "nn",
           "tensor", "ones", "zeros", "ones_like", "zeros_like",
           "randn", "manual_seed", "exp", "sum", "mean", "matmul", "float32", "float64", "int64",
           "engine", "ops", "optim"]
