"""Argument checks shared by the modules: every array reaching the compiled core is C-contiguous
float64 of the shape it expects."""

from __future__ import annotations

import operator
from typing import List, Sequence, Tuple, Type, TypeVar, Union

import numpy as np

ArrayLike = Union[float, Sequence[float], Sequence[Sequence[float]], np.ndarray]


def _real(name: str, value: object) -> np.ndarray:
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected numbers, got "
                        + ("None" if value is None else type(value).__name__))
    try:
        array = np.asarray(value)
    except Exception as error:  # ragged lists and the like
        raise ValueError(f"{name}: not an array of numbers ({error})") from None
    kind = array.dtype.kind
    if kind not in "fiu" or (kind == "f" and array.dtype.itemsize > 8):
        got = (f"dtype {array.dtype}" if kind not in "OSUV" or array.ndim else
               type(value).__name__)
        if kind == "f":
            raise TypeError(f"{name}: expected float64 or narrower numbers, got {got} (convert "
                            "with .astype(np.float64) if the precision loss is fine)")
        raise TypeError(f"{name}: expected real numbers (floats or integers), got {got}")
    return np.asarray(array, dtype=np.float64, order="C")


def _flag(name: str, value: object) -> bool:
    """True or False, and nothing else: "no" or 2 are not read as True."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name}: expected True or False, got {value!r}")


def _names(name: str, value: object, choices: Sequence[str]) -> List[str]:
    """A sequence of names, each one of choices; a string alone is refused, not read letter by
    letter."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected a sequence of names, got the string {value!r} "
                        f"(write ({value!r},) for that one)")
    try:
        names = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{name}: expected a sequence of names, got {type(value).__name__}") \
            from None
    for item in names:
        if not isinstance(item, str) or item not in choices:
            raise ValueError(f"{name}: {item!r} is not one of {', '.join(choices)}")
    return names


_Wrapped = TypeVar("_Wrapped")


def _wrap(cls: Type[_Wrapped], core: object, **fields: object) -> _Wrapped:
    """An instance of cls around a compiled object the core returned (a network's piece, a
    measured path's path), with no argument checks: __init__ takes user data only."""
    instance = object.__new__(cls)
    for name, value in dict(fields, _core=core).items():
        object.__setattr__(instance, name, value)
    return instance


class _Result:
    """Arrays a query returns, named by __slots__; the repr lists each one's shape."""

    __slots__ = ()

    def __repr__(self) -> str:
        def describe(value: object) -> str:
            if isinstance(value, np.ndarray):
                return f"{value.dtype}{list(value.shape)}"
            return "None" if value is None else type(value).__name__
        names: Tuple[str, ...] = self.__slots__
        fields = ", ".join(f"{name}={describe(getattr(self, name, None))}" for name in names)
        return f"{type(self).__name__}({fields})"


def _points(name: str, value: object) -> np.ndarray:
    """An (N, 3) array of points (how many: the library's check)."""
    array = _real(name, value)
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"{name}: expected an (N, 3) array of points, got shape {array.shape}")
    return array


def _rows(name: str, value: object, columns: Union[int, Tuple[int, ...]],
          meaning: str) -> np.ndarray:
    """An (N, columns) array, or (N, c) for any c in a tuple of columns; an empty list or 1-D
    array is N = 0 (of the first)."""
    allowed = (columns,) if isinstance(columns, int) else columns
    array = _real(name, value)
    if array.ndim == 1 and array.size == 0:
        array = array.reshape(0, allowed[0])
    if array.ndim != 2 or array.shape[1] not in allowed:
        shapes = " or ".join(f"(N, {c})" for c in allowed)
        raise ValueError(f"{name}: expected {shapes} rows of {meaning}, got shape "
                         f"{array.shape}")
    return array


def _vector(name: str, value: object) -> np.ndarray:
    array = _real(name, value)
    if array.shape != (3,):
        raise ValueError(f"{name}: expected 3 numbers (x, y, z), got shape {array.shape}")
    return array


def _values(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """Scalars or an array of any shape, flattened; and the shape to give the results."""
    # One query a frame: a Python or numpy float, or an int, skips the array checks.
    if isinstance(value, (float, int)) and not isinstance(value, bool):
        try:
            return np.array((value,), dtype=np.float64), ()
        except OverflowError:
            raise ValueError(f"{name}: an integer of {len(str(abs(value)))} digits is beyond "
                             "float64") from None
    array = _real(name, value)
    return array.reshape(-1), array.shape


def _keys(name: str, value: object) -> np.ndarray:
    """A 1-D array of key values (lengths, times, distances, angles): other shapes are refused,
    not flattened."""
    array = _real(name, value)
    if array.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got shape {array.shape}")
    return array


def _gaps(squared: np.ndarray, point: np.ndarray, query: np.ndarray) -> np.ndarray:
    """sqrt(squared) — the library's squared distances — except where the square lost digits to
    underflow (gaps below ~1e-146: one of 1e-170 read 0) or overflowed (gaps beyond ~1.3e154 read
    inf): there |point − query| scaled by its largest component."""
    gaps = np.sqrt(squared)
    small = (squared < np.finfo(np.float64).tiny / np.finfo(np.float64).eps) | (
        np.isinf(squared) & np.isfinite(query).all(axis=-1))
    if small.any():
        d = point[small] - query[small]
        largest = np.abs(d).max(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = d / largest[:, None]
            gaps[small] = np.where(largest == 0, 0.0,
                                   largest * np.sqrt((scaled * scaled).sum(axis=-1)))
    return gaps


def _vectors(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """One (3,) vector or an (..., 3) array, as (N, 3); and the leading shape."""
    array = _real(name, value)
    if array.ndim == 0 or array.shape[-1] != 3:
        raise ValueError(f"{name}: expected (3,) or (..., 3) points, got shape {array.shape}")
    return array.reshape(-1, 3), array.shape[:-1]


def _matrices(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    array = _real(name, value)
    if array.ndim < 2 or array.shape[-2:] != (3, 3):
        raise ValueError(f"{name}: expected (3, 3) or (..., 3, 3) matrices, got shape {array.shape}")
    return array.reshape(-1, 3, 3), array.shape[:-2]


def _pair(name: str, value: object, what: str) -> Tuple[object, object]:
    """Two items, or an error naming the argument (a number given alone: TypeError)."""
    try:
        count = len(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name}: expected {what}, got {type(value).__name__}") from None
    if count != 2:
        raise ValueError(f"{name}: expected {what}")
    return value[0], value[1]  # type: ignore[index]


def _scalar(name: str, value: object) -> float:
    # float("2") would read a string, and float(True) a bool (refused in arrays too)
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}") from None
    except OverflowError:
        raise ValueError(f"{name}: a number beyond float64") from None


def _integer(name: str, value: object, low: int, high: int) -> int:
    try:
        if isinstance(value, (bool, np.bool_)):  # operator.index(True) is 1
            raise TypeError
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__}") from None
    if not low <= number <= high:
        raise ValueError(f"{name}: {number} not in [{low}, {high}]")
    return number


def _choice(name: str, value: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise (ValueError if isinstance(value, str) else TypeError)(f"{name}: {value!r} is not one of {', '.join(map(repr, choices))}")
    return value


class _Immutable:
    """Objects that never change once built (curves, tracks, networks, solvers, profiles, rigs)
    share their data: a copy, shallow or deep, is the object itself."""

    __slots__ = ()

    def __copy__(self):  # type: ignore[no-untyped-def]
        return self

    def __deepcopy__(self, memo: dict):  # type: ignore[no-untyped-def]
        return self
