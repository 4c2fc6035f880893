"""The modes, one file each: a module here that holds a `MODE` (a `strategies.mode.Mode`) is a
mode. Adding a mode is adding a file (docs/modes.md shows one)."""

from __future__ import annotations

import functools
import importlib
import pkgutil

from longread.strategies.mode import Mode


@functools.cache
def declared() -> dict[str, Mode]:
    """Every mode declared here, by name, in their `order`."""
    modes = []
    for found in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{found.name}")
        mode = getattr(module, "MODE", None)
        if isinstance(mode, Mode):
            modes.append(mode)
    names = [m.name for m in modes]
    if len(set(names)) < len(names) or "auto" in names:
        raise ImportError(f"two modes share a name, or one is named auto: {sorted(names)}")
    return {m.name: m for m in sorted(modes, key=lambda m: (m.order, m.name))}
