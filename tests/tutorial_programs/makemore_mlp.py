# Follows makemore part 2, "Building makemore Part 2: MLP" (karpathy/nn-zero-to-hero,
# lectures/makemore/makemore_part2_mlp.ipynb): Bengio et al.'s MLP on three-character contexts,
# an embedding table C, a tanh hidden layer, F.cross_entropy, minibatch SGD with a learning-rate
# search grid, the train/dev/test split, and sampling. Changes: names.txt (32,033 names, a
# download) is replaced by 207 common first names written in the file; training runs 100 steps
# (the lecture's 200,000), its learning rate drops at step 80 (100,000 there), and the loss is
# printed every 20 steps (with the unscaled initial weights the first steps are so large that
# float32 rounding parts two runs by 1e-4 of the loss after about 200 steps); the plots
# (matplotlib's Agg back end) are not shown; the values a notebook cell shows are printed; 10
# names are sampled (20 there).
# ruff: noqa: E501, E741, E702, E703, B007  (the public program's own style, kept)
import matplotlib

matplotlib.use("Agg")
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import matplotlib.pyplot as plt # for making figures  # noqa: E402

# names.txt stands in: 207 common first names (makemore's file has 32,033), one a line
NAMES_TXT = """\
emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily elizabeth mila ella
avery sofia camila aria scarlett victoria madison luna grace chloe penelope layla riley zoey nora
lily eleanor hannah lillian addison aubrey ellie stella natalie zoe leah hazel violet aurora
savannah audrey brooklyn bella claire skylar lucy paisley everly anna caroline nova genesis emilia
kennedy samantha maya willow kinsley naomi aaliyah elena sarah ariana allison gabriella alice
madelyn cora ruby eva serenity autumn adeline hailey gianna valentina isla eliana quinn nevaeh ivy
sadie piper lydia alexa josephine emery julia delilah arianna vivian kaylee sophie brielle madeline
liam noah william james oliver benjamin elijah lucas mason logan alexander ethan jacob michael
daniel henry jackson sebastian aiden matthew samuel david joseph carter owen wyatt john jack luke
jayden dylan grayson levi isaac gabriel julian mateo anthony jaxon lincoln joshua christopher andrew
theodore caleb ryan asher nathan thomas leo isaiah charles josiah hudson christian hunter connor eli
ezra aaron landon adrian jonathan nolan jeremiah easton elias colton cameron carson robert angel
maverick nicholas dominic jaxson greyson adam ian austin santiago jordan cooper brayden roman evan
ezekiel xavier jose jace jameson leonardo bryson axel everett parker kayden miles sawyer jason
quincy zachary xander felix kai finn oscar
""".replace(' ', '\n')

# read in all the words
words = NAMES_TXT.splitlines()
print(words[:8])
print(len(words))

# build the vocabulary of characters and mappings to/from integers
chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}
print(itos)

# build the dataset
block_size = 3 # context length: how many characters do we take to predict the next one?

def build_dataset(words):
  X, Y = [], []
  for w in words:

    #print(w)
    context = [0] * block_size
    for ch in w + '.':
      ix = stoi[ch]
      X.append(context)
      Y.append(ix)
      #print(''.join(itos[i] for i in context), '--->', itos[ix])
      context = context[1:] + [ix] # crop and append

  X = torch.tensor(X)
  Y = torch.tensor(Y)
  print(X.shape, Y.shape)
  return X, Y

import random  # noqa: E402
random.seed(42)
random.shuffle(words)
n1 = int(0.8*len(words))
n2 = int(0.9*len(words))

Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])

g = torch.Generator().manual_seed(2147483647) # for reproducibility
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 200), generator=g)
b1 = torch.randn(200, generator=g)
W2 = torch.randn((200, 27), generator=g)
b2 = torch.randn(27, generator=g)
parameters = [C, W1, b1, W2, b2]

print(sum(p.nelement() for p in parameters)) # number of parameters in total

for p in parameters:
  p.requires_grad = True

lre = torch.linspace(-3, 0, 1000)
lrs = 10**lre

lri = []
lossi = []
stepi = []

for i in range(100):

  # minibatch construct
  ix = torch.randint(0, Xtr.shape[0], (32,))

  # forward pass
  emb = C[Xtr[ix]] # (32, 3, 10)
  h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 200)
  logits = h @ W2 + b2 # (32, 27)
  loss = F.cross_entropy(logits, Ytr[ix])
  #print(loss.item())

  # backward pass
  for p in parameters:
    p.grad = None
  loss.backward()

  # update
  #lr = lrs[i]
  lr = 0.1 if i < 80 else 0.01
  for p in parameters:
    p.data += -lr * p.grad

  # track stats
  #lri.append(lre[i])
  stepi.append(i)
  lossi.append(loss.log10().item())
  if i % 20 == 0:
    print(i, loss.item())

#print(loss.item())
plt.plot(stepi, lossi)
plt.close()

emb = C[Xtr] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ytr)
print(loss)

emb = C[Xdev] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ydev)
print(loss)

# visualize dimensions 0 and 1 of the embedding matrix C for all characters
plt.figure(figsize=(8,8))
plt.scatter(C[:,0].data, C[:,1].data, s=200)
for i in range(C.shape[0]):
    plt.text(C[i,0].item(), C[i,1].item(), itos[i], ha="center", va="center", color='white')
plt.grid('minor')
plt.close()

# sample from the model
g = torch.Generator().manual_seed(2147483647 + 10)

for _ in range(10):

    out = []
    context = [0] * block_size # initialize with all ...
    while True:
      emb = C[torch.tensor([context])] # (1,block_size,d)
      h = torch.tanh(emb.view(1, -1) @ W1 + b1)
      logits = h @ W2 + b2
      probs = F.softmax(logits, dim=1)
      ix = torch.multinomial(probs, num_samples=1, generator=g).item()
      context = context[1:] + [ix]
      out.append(ix)
      if ix == 0:
        break

    print(''.join(itos[i] for i in out))
