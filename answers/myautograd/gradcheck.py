"""Checking backward formulas against finite differences. PyTorch: torch/autograd/gradcheck.py.

中文：用有限差分检查反向公式。PyTorch 中对应的文件见上文。
"""
import numpy as np

from .tensor import Tensor  # noqa: F401  (given) for the gradient you start each backward with
                            # 中文：（已给出）用来构造每次反向传播的起始梯度


class GradcheckError(RuntimeError):
    """(given) Raised when the two Jacobians disagree, as PyTorch's gradcheck raises it.

    中文：（已给出）两个雅可比矩阵不一致时抛出，和 PyTorch 的 gradcheck 一样。
    """


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Step 11.1: compare the Jacobian backward computes with one from finite differences.

    PyTorch: torch.autograd.gradcheck (torch/autograd/gradcheck.py, slow mode).
    Takes ``function``, which returns one tensor, and ``inputs``, a tuple of
    float64 tensors. Only the inputs that require grad are checked, and they are
    the ones numbered i below (the first input that requires grad is input 0);
    if none does, raise PyTorch's ``ValueError("gradcheck expects at least one
    input tensor to require gradient, but none of them have requires_grad=True.")``.
    Returns True when, for every input i, the two Jacobians below agree
    (``np.allclose(analytical, numerical, rtol=rtol, atol=atol)``); otherwise
    raises ``GradcheckError`` whose message starts with PyTorch's words,
    ``Jacobian mismatch for output 0 with respect to input {i},`` and goes on
    with the two matrices.

    Both matrices have PyTorch's layout: one row per entry of input i, one column
    per entry of the output (the transpose of the textbook dy/dx).
    - numerical: central differences, (out(x + eps) - out(x - eps)) / (2 eps),
      one input entry nudged at a time. ``inputs[i]._data.reshape(-1)`` is a view
      you can write into; every entry must be back to its value afterwards.
    - analytical: what backward says, one output entry at a time: the gradient
      that reaches ``inputs[i].grad`` when backward starts from a gradient that
      is 1 at that entry and 0 elsewhere (write the 1 with ``.flat[k]``: the
      output may be transposed, and ``reshape(-1)`` of a transposed array is a
      copy). Gradients accumulate into ``.grad``, so each backward must start
      from cleared ``.grad``s.
      When ``inputs[i].grad`` stays None after a backward, no gradient reached
      input i: that column is zeros (if nudging input i moves nothing either, the
      two agree, and PyTorch returns True).
    - compare with the ``eps``, ``atol`` and ``rtol`` you were given: an entry passes
      when |analytical - numerical| <= atol + rtol * |numerical|, every entry of both
      matrices, every input.
    - an output that does not require grad (no input reaches it through recorded
      operations) has no backward to run: its analytical Jacobian is zeros.
    Afterwards every input's ``.grad`` is what it was before the call, whether
    gradcheck returns or raises (PyTorch's gradcheck leaves them alone: None stays
    None, a gradient stays).

    中文：步骤 11.1：把反向传播算出的雅可比矩阵，与用有限差分得到的雅可比矩阵相比较。

    PyTorch 中对应 torch.autograd.gradcheck（慢速模式），出处见上文。参数 ``function``
    返回一个张量；``inputs`` 是由 float64 张量组成的元组。只检查其中需要梯度的输入，下面的编号 i
    也只数它们（第一个需要梯度的输入是输入 0）；一个都不需要梯度时，抛出 PyTorch 的
    ``ValueError("gradcheck expects at least one input tensor to require gradient, but none of
    them have requires_grad=True.")``。如果对每个输入 i，
    下面的两个雅可比矩阵都一致（``np.allclose(analytical, numerical, rtol=rtol, atol=atol)``），
    就返回 True；否则抛出 ``GradcheckError``，它的信息以 PyTorch 的措辞
    ``Jacobian mismatch for output 0 with respect to input {i},`` 开头，后面接着两个矩阵。

    两个矩阵都采用 PyTorch 的布局：输入 i 的每个元素一行，输出的每个元素一列（即教科书上
    dy/dx 的转置）。
    - numerical（数值雅可比矩阵）：中心差分 (out(x + eps) - out(x - eps)) / (2 eps)，一次只推动一个
      输入元素。``inputs[i]._data.reshape(-1)`` 是一个可以往里写的视图；推动之后，每个元素都必
      须恢复原值。
    - analytical（解析雅可比矩阵）：backward 给出的结果，一次求一个输出元素：从一个在该元素处为 1、
      其余处为 0 的梯度开始反向传播，到达 ``inputs[i].grad`` 的那个梯度（用 ``.flat[k]`` 写入这个 1：
      输出可能是转置过的，而转置数组的 ``reshape(-1)`` 是一份副本）。梯度会累加进 ``.grad``，
      所以每次反向传播都必须从清空了的 ``.grad`` 开始。如果一次反向传播之后 ``inputs[i].grad`` 仍是
      None，说明没有梯度到达输入 i：那一列全为零（如果推动输入 i 也什么都不改变，两者就一致，PyTorch
      返回 True）。
    - 用传入的 ``eps``、``atol`` 和 ``rtol`` 比较：
      |analytical - numerical| <= atol + rtol * |numerical| 时，一个元素就算通过；两个矩阵的每个元
      素、每个输入都要通过。
    - 不需要梯度的输出（没有哪个输入经由记录下来的运算到达它）没有反向传播可以运行：它的解析雅可比
      矩阵全为零。
    调用结束后，无论 gradcheck 是返回还是抛出异常，每个输入的 ``.grad`` 都和调用之前一样（PyTorch
    的 gradcheck 不动它们：None 仍是 None，已有的梯度仍在）。
    """
    ### BEGIN SOLUTION
    from .creation import zeros_like
    grads_before = [t.grad for t in inputs]
    checked = [t for t in inputs if t.requires_grad]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of "
                         "them have requires_grad=True.")
    try:
        output = function(*inputs)
        for i, tensor in enumerate(checked):
            numerical = np.zeros((tensor.numel(), output.numel()))
            flat = tensor._data.reshape(-1)
            for j in range(tensor.numel()):
                original = flat[j]
                flat[j] = original + eps
                plus = function(*inputs)._data.copy()
                flat[j] = original - eps
                minus = function(*inputs)._data.copy()
                flat[j] = original
                numerical[j] = ((plus - minus) / (2 * eps)).reshape(-1)
            analytical = np.zeros_like(numerical)
            for k in range(output.numel()):
                for t in inputs:
                    t.grad = None
                seed = zeros_like(output)
                seed._data.flat[k] = 1                # (.flat: reshape(-1) of a transposed layout is a copy)
                if output.requires_grad:           # else no backward can run: that column stays zeros
                    function(*inputs).backward(seed)
                if tensor.grad is not None:
                    analytical[:, k] = tensor.grad._data.reshape(-1)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input {i},\n"
                                     f"numerical:{numerical}\nanalytical:{analytical}\n")
        return True
    finally:                      # returned, or raised (a mismatch, or an error in function): as before
        for t, grad in zip(inputs, grads_before, strict=True):
            t.grad = grad
    ### END SOLUTION
