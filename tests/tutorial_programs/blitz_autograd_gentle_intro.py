# Follows "A Gentle Introduction to torch.autograd" (pytorch/tutorials,
# beginner_source/blitz/autograd_tutorial.py, current version). The resnet18
# download is replaced by a small local model with an ``fc`` layer.
import torch
from torch import nn, optim

# Differentiation in autograd: Q = 3a^3 - b^2, a vector, so backward needs a gradient.
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)

# Exclusion from the DAG: an output requires grad if any input does.
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")


# Frozen parameters: (stand-in for a pretrained resnet18) freeze everything, swap the classifier.
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(64, 512), nn.ReLU())
        self.fc = nn.Linear(512, 1000)

    def forward(self, x):
        return self.fc(self.features(x))


model = Backbone()
data = torch.rand(1, 64)
labels = torch.rand(1, 1000)
prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
optimizer.step()

for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(512, 10)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
out = model(data).sum()
out.backward()
print([name for name, p in model.named_parameters() if p.grad is not None])
print(model.fc.weight.grad.shape, model.features[0].weight.grad)
