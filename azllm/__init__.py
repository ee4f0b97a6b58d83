__version__ = "0.1.0"
from . import core as _core   # first, so its logging filters are in place before any module imports transformers (and torchao)

import os as _os
# transformers 5.2x turns Hugging Face Hub kernels on in `from_pretrained` whenever the `kernels` package is installed: a model's
# first `.train()` then downloads and runs code from the Hub (and fails offline). azllm brings its own kernels (Liger, fused LoRA)
# and runs no code it downloads: Hub kernels stay off unless you set USE_HUB_KERNELS=YES yourself.
_os.environ.setdefault('USE_HUB_KERNELS', 'NO')
