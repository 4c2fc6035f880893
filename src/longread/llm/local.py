"""Local GGUF models through llama-cpp-python: loaded once per process, one call at a time."""

from __future__ import annotations

import atexit
import functools
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from longread import deadline
from longread.errors import ModelError
from longread.llm.base import LM, TransientModelError
from longread.llm.prefix_states import PrefixStates
from longread.llm.types import Completion, Message, Request

_loaded: dict[tuple[str, int, str | None, int], Any] = {}
_load_lock = threading.Lock()
_call_locks: dict[int, threading.Lock] = {}  # by id of a loaded model (kept till exit): one call
# at a time, whichever LocalLM (root, sub-model) makes it


@atexit.register
def _close_all() -> None:
    """Free the loaded models before the interpreter tears down what their finalizers need; one
    still decoding for a thread the exit did not wait for is left to the end of the process
    (freed under it, it would crash)."""
    with _load_lock:
        for llama in _loaded.values():
            lock = _call_locks.get(id(llama))
            if lock is None or lock.acquire(timeout=0.2):  # (held from now on: no call starts)
                llama.close()
        _loaded.clear()


def load_llama(
    path: Path, n_ctx: int, chat_format: str | None = None, prompt_cache_bytes: int = 0
) -> Any:
    """Return the process-wide `Llama` for this file, loading it on first use (`chat_format`
    for a file that carries no chat template of its own). With `prompt_cache_bytes`, the
    evaluated prompts are kept in memory up to that size, so a call that starts as an earlier
    one did (the root's growing conversation, after sub-calls in between) evaluates only what
    is new."""
    key = (str(path), n_ctx, chat_format, prompt_cache_bytes)
    with _load_lock:
        if key not in _loaded:
            try:
                from llama_cpp import Llama
            except ImportError as error:  # pragma: no cover - depends on the install
                raise ModelError("llama-cpp-python is not installed; run `make install`") from error
            _loaded[key] = Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=os.cpu_count() or 2,
                chat_format=chat_format,
                verbose=False,
            )
            if prompt_cache_bytes:
                _loaded[key].set_cache(prompt_cache(prompt_cache_bytes))
        return _loaded[key]


@functools.lru_cache(maxsize=8)
def _grammar(text: str) -> Any:
    """llama.cpp's grammar of a GBNF text (made once)."""
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(text, verbose=False)


@contextmanager
def _turn(lock: threading.Lock) -> Iterator[bool]:
    """The model's turn under `lock`: whether the call waited for it (another call held it)."""
    waited = not lock.acquire(blocking=False)
    if waited:
        lock.acquire()
    try:
        yield waited
    finally:
        lock.release()


def until(end: float, end_token: int) -> Any:
    """A llama.cpp logits processor that ends the reply at `end` (a `time.monotonic()` value):
    from then on, `end_token` is its choice where it may end."""

    def processor(tokens: Any, scores: Any) -> Any:
        if time.monotonic() >= end:
            _ending(scores, end_token)
        return scores

    return processor


def stopper(end_token: int, cancelled: threading.Event | None = None) -> Any:
    """A llama.cpp logits processor that ends the reply once this process is asked to stop, or
    the run is `cancelled`."""

    def processor(tokens: Any, scores: Any) -> Any:
        if deadline.stop_requested() is not None or (cancelled and cancelled.is_set()):
            _ending(scores, end_token)
        return scores

    return processor


FAR_BELOW = 1e4  # what an ending reply's other tokens lose against the end token
LOOP_TOKENS = range(8, 65)  # the lengths of a looping stretch looked for, in tokens
LOOP_COPIES = 3  # a stretch made this many times in a row ends the reply


def loop_stopper(end_token: int) -> Any:
    """A llama.cpp logits processor that ends the reply once it makes one stretch of tokens
    LOOP_COPIES times in a row (the prompt, the first tokens it sees, aside)."""
    import numpy as np

    prompt: list[int] = []

    def processor(tokens: Any, scores: Any) -> Any:
        if not prompt:
            prompt.append(len(tokens))
        made = np.asarray(tokens[prompt[0] :])
        n = len(made)
        for period in LOOP_TOKENS:
            if period * LOOP_COPIES > n:
                break
            tail = made[n - period :]
            if all(
                np.array_equal(tail, made[n - k * period : n - (k - 1) * period])
                for k in range(2, LOOP_COPIES + 1)
            ):
                _ending(scores, end_token)
                break
        return scores

    return processor


def _ending(scores: Any, token: int) -> None:
    """Make `token` (the end) the choice wherever it may be chosen: the others stay, far below
    it, in their order. Under a grammar that does not allow the end yet (a JSON object still
    open), the reply goes on with the best token it allows, to where it may end; with no token
    left, llama.cpp would abort the process."""
    scores -= FAR_BELOW
    scores[token] = 0.0


def prompt_cache(capacity_bytes: int) -> Any:
    """llama.cpp's RAM cache of evaluated prompts, holding at most `capacity_bytes` in all: each
    saved state's logits counted too (llama-cpp-python counts only the model's own state, and a
    large vocabulary's logits are ten times that)."""
    from llama_cpp import LlamaRAMCache

    class BoundedRAMCache(LlamaRAMCache):
        @property
        def cache_size(self) -> int:
            return sum(
                s.llama_state_size + s.scores.nbytes + s.input_ids.nbytes
                for s in self.cache_state.values()
            )

    return BoundedRAMCache(capacity_bytes=capacity_bytes)


class LocalLM(LM):
    """A GGUF model run in this process. Structured calls use llama.cpp's JSON-schema grammar."""

    on_cpu = True

    def __init__(
        self,
        path: Path,
        *,
        name: str,
        context_window: int = 8192,
        writes_code: bool,
        chat_format: str | None = None,
        prompt_cache_bytes: int = 0,
    ):
        self.path = path
        self.chat_format = chat_format
        self.prompt_cache_bytes = prompt_cache_bytes
        self.name = name
        self.context_window = context_window
        self.writes_code = writes_code

    @property
    def llama(self) -> Any:
        return load_llama(self.path, self.context_window, self.chat_format, self.prompt_cache_bytes)

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def count_prompt(self, messages: Sequence[Message]) -> int:
        """Tokens of the prompt the model's own chat template makes of the messages (its default
        system message included), when the model file has a template."""
        tokens = self._prompt_tokens(messages)
        return super().count_prompt(messages) if tokens is None else len(tokens)

    def _prompt_tokens(self, messages: Sequence[Message]) -> list[int] | None:
        """The tokens the model's own chat template makes of the messages (None for a file
        without a template)."""
        llama = self.llama
        template = llama.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        def text(token: int) -> str:
            return llama.detokenize([token], special=True).decode("utf-8", "replace")

        shaped = Jinja2ChatFormatter(template, text(llama.token_eos()), text(llama.token_bos()))
        prompt = shaped(messages=list(messages)).prompt  # type: ignore[arg-type]
        return list(llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def _kept_prefix(self, messages: Sequence[Message]) -> list[int]:
        """The tokens the prompt shares with its first message alone (what a later prompt
        starting with the same message shares with it)."""
        full = self._prompt_tokens(messages)
        first = self._prompt_tokens(messages[:1])
        if full is None or first is None:
            return []
        shared = next((n for n, (a, b) in enumerate(zip(full, first, strict=False)) if a != b), 0)
        return full[:shared]

    def complete(self, request: Request) -> Completion:
        if request.images:
            raise ModelError(f"{self.name} reads no images: give a vision model")
        kwargs = request.chat_kwargs()
        if request.json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": request.json_schema}
        if request.grammar is not None:  # (code: its names repeat, and are not penalized)
            kwargs.update(grammar=_grammar(request.grammar), repeat_penalty=1.0)
        llama = self.llama
        processors = [stopper(llama.token_eos(), request.cancelled)]  # (at the next token)
        ends = None if request.timeout is None else time.monotonic() + request.timeout
        if ends is not None:  # (the reply is cut where the time runs out)
            processors.append(until(ends, llama.token_eos()))
        if request.prose:  # (a loop ends the reply: cut after its first copy, it says no more)
            processors.append(loop_stopper(llama.token_eos()))
        from llama_cpp import LogitsProcessorList

        kwargs["logits_processor"] = LogitsProcessorList(processors)
        with _load_lock:
            lock = _call_locks.setdefault(id(llama), threading.Lock())
        with _turn(lock) as waited:
            deadline.end_if_stopped()  # (asked while this call waited for the model)
            if waited and ends is not None and time.monotonic() >= ends:  # (prompt left unread)
                raise TransientModelError(f"{self.name}: the call's time ran out in its wait")
            started = time.monotonic()
            prefix = self._kept_prefix(request.messages) if request.keep_prefix else []
            states = PrefixStates(self.path, self.context_window) if prefix else None
            held = llama.n_tokens >= len(prefix) and list(llama.input_ids[: len(prefix)]) == prefix
            restored = bool(held) or bool(states and states.restore(llama, prefix))
            cache, llama.cache = llama.cache, (llama.cache if not prefix else None)
            try:
                response = llama.create_chat_completion(**kwargs)
            except ValueError as error:  # llama.cpp reports an over-long prompt this way
                raise ModelError(f"{self.name}: {error}") from error
            finally:
                llama.cache = cache
            if states is not None and not restored:
                states.save(llama, prefix)
            seconds = time.monotonic() - started
        usage = response["usage"]
        return Completion(
            text=response["choices"][0]["message"]["content"] or "",
            input_tokens=usage["prompt_tokens"],
            output_tokens=usage["completion_tokens"],
            model=self.name,
            seconds=seconds,
        )
