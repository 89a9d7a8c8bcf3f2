# Follows the "Broadcasting semantics" note (pytorch/pytorch, docs/source/notes/broadcasting.rst):
# which shapes broadcast, the resulting sizes, in-place operations (which may not change the
# shape of the tensor written to), and the backward-compatibility warning switch. Changes: the
# note's interactive lines are run as a program: each size shown is printed, and each error the
# note shows is caught and its message printed; torch.empty's uninitialised values are never
# printed (only sizes are).
import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
# same shapes are always broadcastable (i.e. the above rules always hold)
print((x + y).size())

x = torch.empty((0,))
y = torch.empty(2, 2)
# x and y are not broadcastable, because x does not have at least 1 dimension
try:
    x + y
except RuntimeError as error:
    print("RuntimeError:", error)

# can line up trailing dimensions
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
# x and y are broadcastable.
# 1st trailing dimension: both have size 1
# 2nd trailing dimension: y has size 1
# 3rd trailing dimension: x size == y size
# 4th trailing dimension: y dimension doesn't exist
print((x + y).size())

# but:
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
# x and y are not broadcastable, because in the 3rd trailing dimension 2 != 3
try:
    x + y
except RuntimeError as error:
    print("RuntimeError:", error)

# can line up trailing dimensions to make reading easier
x = torch.empty(5, 1, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())

# but not necessary:
x = torch.empty(1)
y = torch.empty(3, 1, 7)
print((x + y).size())

x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    (x + y).size()
except RuntimeError as error:
    print("RuntimeError:", error)

# In-place semantics
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x.add_(y)).size())

# but:
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
try:
    (x.add_(y)).size()
except RuntimeError as error:
    print("RuntimeError:", error)

# Backwards compatibility
print(torch.add(torch.ones(4, 1), torch.randn(4)).size())
# would previously produce a Tensor with size: torch.Size([4,1]),
# but now produces a Tensor with size: torch.Size([4,4]).

torch.utils.backcompat.broadcast_warning.enabled = True
print(torch.add(torch.ones(4, 1), torch.ones(4)))
print(torch.utils.backcompat.broadcast_warning.enabled, torch.utils.backcompat.keepdim_warning.enabled)
torch.utils.backcompat.broadcast_warning.enabled = False
