"""Host-list expressions: ranges, padding, lists, caps checked before expansion."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitstop.collectors import hostlist
from pitstop.core.errors import UsageError


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        ("gpu[01-03]", ("gpu01", "gpu02", "gpu03")),
        ("node[1-3,7]", ("node1", "node2", "node3", "node7")),
        ("a,b, a", ("a", "b")),
        ("r[1-2]n[8-9]", ("r1n8", "r1n9", "r2n8", "r2n9")),
        ("gpu[9-11]", ("gpu9", "gpu10", "gpu11")),
        ("x[007-009]", ("x007", "x008", "x009")),
        ("@h100,gpu1", ("@h100", "gpu1")),
        ("gpu-a.example.com", ("gpu-a.example.com",)),
    ],
)
def test_expand(expr: str, names: tuple[str, ...]) -> None:
    assert hostlist.expand(expr) == names


def test_count_does_not_expand() -> None:
    assert hostlist.count("gpu[1-1000000000]") == 1_000_000_000
    assert hostlist.count("r[1-10]n[1-100]") == 1000


def test_cap_refuses_before_building() -> None:
    with pytest.raises(UsageError, match="expands to 10000 hosts; the limit is 1024"):
        hostlist.expand("gpu[1-10000]")
    with pytest.raises(UsageError, match="limit is 5"):
        hostlist.expand("a[1-3],b[1-3]", max_hosts=5)


@pytest.mark.parametrize(
    "expr",
    [
        "gpu1; rm -rf /",
        "$(reboot)",
        "`id`",
        "gpu1\nrm",
        "gpu[1-",
        "gpu[3-1]",
        "gpu[a-b]",
        "gpu]1[",
        "-oProxy",
        "gpu[1-2]]",
        "",
        "gpu[\u0661-\u0663]",
        "ｇｐｕ１",
        "gpu[1-99999999999999999999999]",  # past an index-sized integer
        "gpu[99999999999999999999]",
        "gpu[1-" + "9" * 5000 + "]",  # past Python's int() digit limit
        "gpu[" + "1" * 9000 + "]",
    ],
    ids=lambda expr: repr(expr[:30]),
)
def test_hostile_or_malformed_is_refused(expr: str) -> None:
    with pytest.raises(UsageError):
        hostlist.expand(expr)


@pytest.mark.parametrize(
    ("names", "expr"),
    [
        ([f"gpu{i:02d}" for i in range(1, 17)] + ["gpu18"], "gpu[01-16,18]"),
        (["gpu1", "gpu2", "gpu9", "gpu10", "gpu11"], "gpu[1-2,9-11]"),
        (["gpu09", "gpu10", "gpu100"], "gpu[09-10,100]"),
        (["n01-ib", "n02-ib", "n03-ib"], "n[01-03]-ib"),
        (["login", "gpu3", "gpu3", "gpu1"], "gpu[1,3],login"),
        (["node7"], "node7"),
        (["rack1-gpu01", "rack1-gpu02", "rack2-gpu01"], "rack1-gpu[01-02],rack2-gpu01"),
        (["gpu1", "gpu01"], "gpu[1,01]"),
        ([], ""),
    ],
)
def test_compress(names: list[str], expr: str) -> None:
    assert hostlist.compress(names) == expr
    if names:
        assert set(hostlist.expand(expr)) == set(names)


_NAME_PARTS = st.tuples(
    st.sampled_from(["gpu", "node-", "h100-sxm5-healthy-", "a1b", ""]),
    st.integers(min_value=0, max_value=1200),
    st.sampled_from([0, 2, 3, 4]),
    st.sampled_from(["", "-ib", ".lab"]),
)


@given(st.lists(_NAME_PARTS, min_size=1, max_size=300))
def test_compress_is_the_inverse_of_expand(parts: list[tuple[str, int, int, str]]) -> None:
    names = [f"{p}{str(n).zfill(w)}{s}" for p, n, w, s in parts]
    names = [n for n in names if n[0].isalnum()]
    if not names:
        return
    expr = hostlist.compress(names)
    assert sorted(hostlist.expand(expr, max_hosts=10_000)) == sorted(set(names))
    assert len(expr) <= len(",".join(set(names)))


@pytest.mark.parametrize("term", ["gpu1\n", "gpu[1-2]\n", "gpu1\n\n", "@h100\n", "gpu\n[1-2]"])
def test_a_term_with_a_newline_is_not_a_name(term: str) -> None:
    for call in (hostlist.count, lambda t: list(hostlist.expand_term(t))):
        with pytest.raises(UsageError):
            call(term)


def test_a_huge_range_is_refused_at_once() -> None:
    started = time.process_time()
    for expr in ("gpu[1-99999999]", "gpu[1-999999999999999999]", "a[1-99999][1-99999][1-99999],b"):
        with pytest.raises(UsageError, match="the limit is 1024"):
            hostlist.expand(expr)
    assert time.process_time() - started < 0.5
