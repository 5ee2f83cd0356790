"""Exact points of the plane turned by rational fractions of a full turn.

A jumbling closure turns circle centres again and again about the disk
centres; in floating point two copies of one circle reached by different
paths differ in the last bits, and deciding "same circle or a new one" by a
tolerance is exactly where a fractal closure and a finite one are hard to
tell apart. Here every point is an element of the cyclotomic field Q(ζ_N)
(ζ = e^{2πi/N}, N a multiple of 4 and of every disk's number of steps),
stored as integer coordinates over the power basis ζ^0 … ζ^{φ(N)-1} with one
common denominator. Turning about a centre is an integer matrix, so equal
points are equal tuples: no tolerance at all.

>>> f = CyclotomicPlane(4, [Fraction(1)])
>>> p = f.point(1, 0)
>>> f.value(f.turn(p, f.point(0, 0), 1, 4))
(6.123233995736766e-17+1j)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import numpy as np

Point = tuple[int, ...]

COEFFICIENT_LIMIT = 2**52
"""Integer coordinates stay far below int64 overflow; a closure that grows past this is refused."""


def cyclotomic_polynomial(n: int) -> list[int]:
    """Coefficients (lowest degree first) of the n-th cyclotomic polynomial, by exact division of x^n - 1."""
    poly = [-1] + [0] * (n - 1) + [1]
    for d in range(1, n):
        if n % d == 0:
            poly = _divide(poly, cyclotomic_polynomial(d))
    return poly


def _divide(num: list[int], den: list[int]) -> list[int]:
    """Exact quotient of integer polynomials with a monic divisor."""
    num = list(num)
    out = [0] * (len(num) - len(den) + 1)
    for i in range(len(out) - 1, -1, -1):
        c = num[i + len(den) - 1]
        out[i] = c
        for j, d in enumerate(den):
            num[i + j] -= c * d
    return out


class CyclotomicPlane:
    """Points x + iy with x, y rational, and their turns by multiples of 2π/N about such points."""

    def __init__(self, n: int, coordinates: Iterable[Fraction]):
        if n % 4:
            raise ValueError("N must be a multiple of 4 (the field must contain i)")
        self.n = n
        phi = cyclotomic_polynomial(n)
        self.degree = len(phi) - 1
        self.denominator = math.lcm(*(c.denominator for c in coordinates), 1)
        # ζ^m reduced modulo Φ_N, for m = 0 .. N-1
        powers = np.zeros((n, self.degree), dtype=np.int64)
        current = [0] * self.degree
        current[0] = 1
        for m in range(n):
            powers[m] = current
            top = current[-1]
            current = [0, *current[:-1]]
            if top:
                current = [c - top * p for c, p in zip(current, phi[:-1])]
        self._powers = powers
        self._turns: dict[int, np.ndarray] = {}
        self._zeta = np.exp(2j * np.pi * np.arange(self.degree) / n)

    def point(self, x: Fraction | float, y: Fraction | float) -> Point:
        """The exact point (x, y); floats are read as the decimals they print as."""
        fx, fy = (v if isinstance(v, Fraction) else Fraction(repr(float(v))) for v in (x, y))
        vec = np.zeros(self.degree, dtype=np.int64)
        for coefficient, power in ((fx, 0), (fy, self.n // 4)):
            scaled = coefficient * self.denominator
            if scaled.denominator != 1:
                raise ValueError(f"coordinate {coefficient} is not a multiple of 1/{self.denominator}")
            vec = vec + int(scaled) * self._powers[power]
        return tuple(int(v) for v in vec)

    def _turn_matrix(self, power: int) -> np.ndarray:
        """Multiplication by ζ^power in the power basis."""
        power %= self.n
        if power not in self._turns:
            self._turns[power] = np.stack([self._powers[(k + power) % self.n] for k in range(self.degree)], axis=1)
        return self._turns[power]

    def turn(self, p: Point, centre: Point, k: int, steps: int) -> Point:
        """``p`` turned by k/steps of a full turn about ``centre``: centre + ζ^(kN/steps) (p - centre)."""
        if self.n % steps:
            raise ValueError(f"{steps} steps do not divide N = {self.n}")
        m = self._turn_matrix(k * (self.n // steps))
        c = np.array(centre, dtype=np.int64)
        out = c + m @ (np.array(p, dtype=np.int64) - c)
        if np.max(np.abs(out)) > COEFFICIENT_LIMIT:
            raise OverflowError("exact coordinates grew too large")
        return tuple(int(v) for v in out)

    def value(self, p: Point) -> complex:
        """The point as a complex number x + iy (floating point, for drawing and tests)."""
        return complex(np.dot(np.array(p, dtype=float), self._zeta) / self.denominator)

    def xy(self, p: Point) -> tuple[float, float]:
        z = self.value(p)
        return (z.real, z.imag)
