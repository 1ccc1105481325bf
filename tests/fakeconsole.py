"""A scripted console with simulated time, for driving the terminal table in tests."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Typed:
    """A line typed ``after_ms`` after the read began (for timed reads)."""

    after_ms: int
    text: str


class FakeConsole:
    """Lines from a script; writes collected; a clock that only moves when the table waits."""

    def __init__(self, script: Iterable[str | Typed] = ()) -> None:
        self.script: list[str | Typed] = list(script)
        self.lines: list[str] = []
        self.clock = 0.0
        self.prompts: list[str] = []

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def write(self, text: str) -> None:
        self.lines.append(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.script:
            raise EOFError
        item = self.script.pop(0)
        if isinstance(item, Typed):
            self.clock += item.after_ms / 1000
            return item.text
        return item

    def read_within(self, prompt: str, seconds: float) -> str | None:
        self.prompts.append(prompt)
        item = self.script[0] if self.script else None
        if isinstance(item, Typed) and item.after_ms <= seconds * 1000:
            self.script.pop(0)
            self.clock += item.after_ms / 1000
            return item.text
        if isinstance(item, Typed):
            self.script[0] = Typed(item.after_ms - int(seconds * 1000), item.text)
        self.clock += max(seconds, 0.0)
        return None

    def discard_pending(self) -> None:
        pass

    def now(self) -> float:
        return self.clock

    def sleep(self, seconds: float) -> None:
        self.clock += max(seconds, 0.0)
