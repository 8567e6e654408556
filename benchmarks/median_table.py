"""The markdown table the C++ side-by-side benchmarks print: medians of ours and the reference's."""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def print_median_table(title: str, first_column: str, cases: Iterable[str],
                       samples: dict[tuple[str, str], list[float]]) -> None:
    """Print ``title``, then one row per case: the medians of ``samples[("ours"|"reference", case)]``.

    Parameters
    ----------
    title : str
        The line above the table.
    first_column : str
        The heading of the case column.
    cases : iterable of str
        The rows, in order.
    samples : dict
        ``(side, case)`` -> the measurements, side being ``ours`` or ``reference``.
    """
    print(f"{title}\n")
    print(f"| {first_column} | ours | reference | ours / reference |")
    print("|---|---|---|---|")
    for case in cases:
        ours = statistics.median(samples[("ours", case)])
        ref = statistics.median(samples[("reference", case)])
        print(f"| {case} | {ours:.1f} | {ref:.1f} | {ours / ref:.2f}x |")
