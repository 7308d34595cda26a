"""torch.layout: how a tensor's elements are stored. Only the strided layout exists so far; the
sparse COO layout comes with the sparse plugin."""


class layout:
    __slots__ = ('name',)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return 'torch.' + self.name

    def __reduce__(self):
        return self.name  # pickled by reference to torch.<name>


strided = layout('strided')
