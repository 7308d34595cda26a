"""The cases of test_masked_reference.py (run under the reference to record, under this project to compare)."""
import torch, json, sys, math
x = torch.tensor([[1., 2, 3], [4, 5, 6], [-1, 0.5, 2]])
m = torch.tensor([[True, False, True], [False, False, False], [True, True, True]])
out = {}
def rec(name, f):
    try:
        r = f(); out[name] = ['ok', str(r.dtype), [None if (isinstance(v, float) and math.isnan(v)) else v for v in r.flatten().tolist()]]
    except Exception as e:
        out[name] = ['err', type(e).__name__, str(e)]
M = torch.masked
for f in ['sum', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'mean', 'logsumexp', 'median']:
    rec(f + ' dim1', lambda f=f: getattr(M, f)(x, 1, mask=m))
    rec(f + ' dim0 keep', lambda f=f: getattr(M, f)(x, 0, keepdim=True, mask=m))
for f in ['sum', 'prod', 'amax', 'amin', 'mean', 'logsumexp']:
    rec(f + ' all', lambda f=f: getattr(M, f)(x, mask=m))
    rec(f + ' nomask', lambda f=f: getattr(M, f)(x, 1))
rec('sum bcast mask', lambda: M.sum(x, 1, mask=torch.tensor([True, False, True])))
rec('sum dtype', lambda: M.sum(x.int(), 1, dtype=torch.float64, mask=m))
rec('amax int', lambda: M.amax(x.int(), 1, mask=m))
for ord in (2.0, 1.0, float('inf'), -float('inf'), 0.5):
    rec('norm %s' % ord, lambda o=ord: M.norm(x, o, 1, mask=m))
for unb in (False, True):
    rec('var %s' % unb, lambda u=unb: M.var(x, 1, unb, mask=m))
    rec('std %s' % unb, lambda u=unb: M.std(x, 1, unb, keepdim=True, mask=m))
    rec('var all %s' % unb, lambda u=unb: M.var(x, None, unb, mask=m))
for f in ['softmax', 'log_softmax', 'softmin', 'cumsum', 'cumprod']:
    rec(f, lambda f=f: getattr(M, f)(x, 1, mask=m))
rec('normalize', lambda: M.normalize(x, 2.0, 1, mask=m))
rec('normalize 1', lambda: M.normalize(x, 1.0, 0, mask=m))
rec('logaddexp', lambda: M.logaddexp(x, x.flip(0), input_mask=m, other_mask=m.flip(1)))
rec('sum bad dim', lambda: M.sum(x, 3, mask=m))
json.dump(out, sys.stdout)
