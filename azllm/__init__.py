__version__ = "0.1.0"
from . import core as _core   # first, so its logging filters are in place before any module imports transformers (and torchao)
