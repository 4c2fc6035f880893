"""What an MCP client passes, checked before any work is done: an offset, a count or a budget out
of range, or an argument of the wrong type, is refused in one line (a number past SQLite's
integers crashed the call with a traceback on the server; the SDK's own refusals ran over
several lines)."""

from __future__ import annotations

import math
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

MAX_OFFSET = 2**53  # a character offset past any document's end (and within SQLite's integers)


def offset(name: str, value: int | None) -> int | None:
    """A character offset, 0 to MAX_OFFSET (or None: not given)."""
    if value is not None and not 0 <= value <= MAX_OFFSET:
        raise ToolError(f"{name} is a character offset, 0 to {MAX_OFFSET:,}; not {_short(value)}")
    return value


def count(name: str, value: int, most: int) -> int:
    """A count of things to return, 1 to `most`."""
    if not 1 <= value <= most:
        raise ToolError(f"{name} is 1 to {most}; not {_short(value)}")
    return value


def budget(name: str, value: float | None) -> float | None:
    """A budget (seconds, dollars): a number above 0 (or None: the server's)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise ToolError(f"{name} is a number above 0; not {_short(value)}")
    return value


def _short(value: object) -> str:
    shown = str(value)
    return shown if len(shown) <= 24 else shown[:20] + "…"


class OneLineServer(MCPServer):
    """The SDK's server, its refusal of an argument of the wrong type said in one line."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            invalid = _invalid(error)
            if invalid is None:
                raise
            said = "; ".join(
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in invalid.errors()
            )
            raise ToolError(f"wrong arguments for {name}: {said}") from invalid


def _invalid(error: BaseException) -> ValidationError | None:
    """The pydantic refusal behind a tool's error, if it is one."""
    cause = error.__cause__
    while cause is not None and not isinstance(cause, ValidationError):
        cause = cause.__cause__
    return cause
