"""The Chinese-only variant of a case file's Chinese cases: a stress probe for Chinese query understanding.

    python3 bench/zh_only.py FILE.jsonl [FILE.jsonl ...] > zh-only.jsonl

Pure-Chinese cases (no English error text) are few in the tuning material (23 in-KB cases over three
files), so this makes more of them from the other Chinese cases: each line without a Chinese character
(pasted machine output) is dropped, and in the lines kept every Latin word that is not a product, tool
or variable name goes (error text, codes, numbers). What is left is the person's own Chinese. Cases with
fewer than 8 Chinese characters left are skipped. Written cases keep their id (suffixed `-zo`), slugs and
origin and are marked `pure_zh`; off-topic cases are skipped (the probe measures ranking only).
"""

from __future__ import annotations

import json
import re
import sys

from pitstop.kb.tokens import CJK_RUN

# Names a pure-Chinese description may still use (the eval sets' rule: product, tool, variable names).
NAMES = re.compile(
    r"^(?:GPU|CPU|NVIDIA|CUDA|NCCL|PyTorch|torch|TensorFlow|docker|Docker|k8s|Kubernetes|nvidia-smi|dmesg"
    r"|IB|InfiniBand|RoCE|RDMA|PCIe|NVLink|NVSwitch|BIOS|BMC|RAID|NUMA|MIG|DCGM|Slurm|ECC|SSH|NFS|OFED"
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$"
)
LATIN = re.compile(r"[A-Za-z0-9][\w.\-/:+]*")
MIN_CJK = 8


def chinese_only(text: str) -> str:
    """The lines of `text` with Chinese in them, stripped of Latin words other than names."""
    kept = []
    for line in text.splitlines():
        if not CJK_RUN.search(line):
            continue
        line = re.sub(r"`[^`]*`", " ", line)
        line = LATIN.sub(lambda m: m.group(0) if NAMES.match(m.group(0)) else " ", line)
        kept.append(re.sub(r"\s+", " ", line).strip())
    return "\n".join(line for line in kept if line)


def main(paths: list[str]) -> int:
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                case = json.loads(line)
                if case.get("lang") != "zh" or not case.get("slugs"):
                    continue
                query = chinese_only(case["query"])
                if sum(len(run) for run in CJK_RUN.findall(query)) < MIN_CJK:
                    continue
                out = {**case, "id": f"{case['id']}-zo", "query": query, "pure_zh": True}
                print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
