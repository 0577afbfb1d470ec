"""The statistics the bot benchmarks are judged by (`bench.stats`)."""

from __future__ import annotations

import math

from bench.stats import sequential_plan, sequential_z, wilson


def test_one_look_is_the_plain_wilson_test():
    """With a single look the plan needs the fewest wins whose 95 % interval clears the bar, and
    it shows a true 40 % exactly as often as a binomial draw reaches that many wins."""
    needs, shown = sequential_plan([200], 0.40, 1.96)
    assert needs == [94]
    assert wilson(93, 200)[0] < 0.40 <= wilson(94, 200)[0]
    tail = sum(math.comb(200, k) * 0.4**k * 0.6 ** (200 - k) for k in range(94, 201))
    assert math.isclose(shown, tail)


def test_more_looks_need_a_wider_boundary():
    """Looking three times at 1.96 would show a true 40 % more than 2.5 % of the time, so the
    common boundary widens until it does not, and every look then needs more wins."""
    looks = [100, 300, 500]
    assert sequential_plan(looks, 0.40, 1.96)[1] > 0.025
    z = sequential_z(looks, 0.40)
    needs, shown = sequential_plan(looks, 0.40, z)
    assert z > 1.96 and shown <= 0.025
    assert needs == [52, 141, 226]
    assert sequential_plan(looks, 0.40, round(z - 0.01, 2))[1] > 0.025
