# Follows the PyTorch version of "Numerical Stability and Initialization" in Dive into Deep
# Learning (d2l-ai/d2l-zh, chapter_multilayer-perceptrons/numerical-stability-and-init_origin.md).
# d2l.plot draws sigmoid and its gradient; here matplotlib draws them to the Agg back end, and
# the program prints a few of the values plotted.
import matplotlib

matplotlib.use("Agg")
from matplotlib import pyplot as plt  # noqa: E402
import torch  # noqa: E402

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

plt.figure(figsize=(4.5, 2.5))
plt.plot(x.detach().numpy(), y.detach().numpy(), '-', x.detach().numpy(), x.grad.numpy(), 'm--')
plt.legend(['sigmoid', 'gradient'])
plt.close()
print(x.grad[::20], x.grad.max(), y[::40])

M = torch.normal(0, 1, size=(4,4))
print('a single matrix \n',M)
for i in range(100):  # noqa: B007
    M = torch.mm(M,torch.normal(0, 1, size=(4, 4)))

print('after multiplying 100 matrices\n', M)
