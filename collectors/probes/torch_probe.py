"""Pitstop torch probe, run as `python3 -c <this file>`: torch version, its CUDA version, is_available,
then the GPU architectures the build was compiled for and, when linked, its NCCL version.

Trade-off: `torch.cuda.is_available()` normally calls cudaGetDeviceCount, which initialises the CUDA
driver in the probing process (on some stacks a context costing hundreds of MB on a busy or
Exclusive_Process GPU). With PYTORCH_NVML_BASED_CUDA_CHECK=1 torch answers from NVML instead and
creates no CUDA context; the answer then means "this build has CUDA and NVML sees a GPU", not "cuInit
works". The version fields never touch the GPU and decide the CPU-only-build check on their own.
The first line matches ../shared/outputs/torch-version/*.txt; `arch_list sm_80 ...` and `nccl 2.21.5`
follow on their own lines (both are compile-time constants: get_arch_list() and ncclGetVersion create
no CUDA context). Without torch, Python's own "No module named 'torch'" error is the answer.
"""

import os

os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
import torch  # noqa: E402  (the environment variable must be set before the import)

print(torch.__version__, torch.version.cuda, torch.cuda.is_available())
print("arch_list", *torch.cuda.get_arch_list())
try:
    print("nccl", ".".join(str(part) for part in torch.cuda.nccl.version()))
except (AttributeError, RuntimeError):  # a CPU-only build has no NCCL
    pass
