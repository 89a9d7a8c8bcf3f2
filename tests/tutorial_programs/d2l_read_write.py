# Follows the PyTorch version of "File I/O" in Dive into Deep Learning (d2l-ai/d2l-en v0.17,
# chapter_deep-learning-computation/read-write.md): saving and loading a tensor, a list, a dict
# and a model's parameters. Changes: the files go to a temporary folder, not the working one;
# the values a notebook cell shows are printed.
import os
import tempfile

import torch
from torch import nn
from torch.nn import functional as F

folder = tempfile.mkdtemp()

x = torch.arange(4)
torch.save(x, os.path.join(folder, 'x-file'))

x2 = torch.load(os.path.join(folder, 'x-file'))
print(x2)

y = torch.zeros(4)
torch.save([x, y], os.path.join(folder, 'x-files'))
x2, y2 = torch.load(os.path.join(folder, 'x-files'))
print((x2, y2))

mydict = {'x': x, 'y': y}
torch.save(mydict, os.path.join(folder, 'mydict'))
mydict2 = torch.load(os.path.join(folder, 'mydict'))
print(mydict2)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)

torch.save(net.state_dict(), os.path.join(folder, 'mlp.params'))

clone = MLP()
print(clone.load_state_dict(torch.load(os.path.join(folder, 'mlp.params'))))
print(clone.eval())

Y_clone = clone(X)
print(Y_clone == Y)
