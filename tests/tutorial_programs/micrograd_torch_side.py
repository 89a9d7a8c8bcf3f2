# Follows the PyTorch side of micrograd's tests (karpathy/micrograd, test/test_engine.py):
# the same expressions written with torch.Tensor, in float64.
import torch

x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
print(y.data.item(), x.grad.item())

a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(g.data.item(), a.grad.item(), b.grad.item())

for fn in (torch.Tensor.tanh, torch.Tensor.exp):
    for value in (-1., .123, 2.):
        xt = torch.Tensor([value]).double()
        xt.requires_grad = True
        yt = fn(xt)
        yt.backward()
        print(fn.__name__, yt.data.item(), xt.grad.item())
