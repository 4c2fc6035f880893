"""`Session`: a conversation about one document or folder, question after question, with what
earlier questions found kept at hand; saved under a name when it has one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Self

from longread.answer import Answer
from longread.errors import InputError
from longread.store.sessions import SavedSession, SessionStore
from longread.strategies.conversation import Conversation, Turn

if TYPE_CHECKING:
    from longread.api.asker import SourceAsker


class Session:
    """Questions asked one after another about one source. A follow-up that the passages of
    earlier answers hold is answered from them in one call; the rlm loop keeps its REPL and the
    variables it made; the index and the response cache stay open. With a `name`, each answer is
    saved at once, and a later session by that name (about the same source) resumes it.

    >>> with SingleDocRLM("contract.pdf").session("review") as chat:
    ...     chat.ask("What is the notice period?")
    ...     chat.ask("Who has to give it?")
    """

    def __init__(
        self, asker: SourceAsker, name: str | None = None, store: SessionStore | None = None
    ):
        self.asker = asker
        self.name = name
        self.store = store or SessionStore()
        self.conversation = Conversation()
        source, kind = asker.source()
        self.source, self.kind = str(Path(source).resolve()), kind
        saved = self.store.load(name) if name else None
        if saved is not None:
            if (saved.source, saved.kind) != (self.source, self.kind):
                raise InputError(
                    f"the session {name!r} is about {saved.source}, not {self.source}: "
                    "choose another name, or `longread sessions rm` it"
                )
            self.conversation.turns = [Turn(q, a) for q, a in saved.turns]

    @property
    def turns(self) -> list[Turn]:
        """The questions so far, each with its answer (a resumed session's included)."""
        return self.conversation.turns

    def ask(self, question: str, mode: str | None = None) -> Answer:
        """The answer to the next question (saved with the session when it has a name)."""
        answer = self.asker.ask_in(self.conversation, question, mode)
        if self.name:
            self.save()
        return answer

    def save(self) -> None:
        """Write the session under its name."""
        if not self.name:
            raise InputError("a session without a name cannot be saved")
        turns = [(t.question, t.answer) for t in self.turns]
        self.store.save(SavedSession(self.name, self.source, self.kind, turns))

    def close(self) -> None:
        """Stop the REPL the session kept (the asker, its index and cache stay open)."""
        self.conversation.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
