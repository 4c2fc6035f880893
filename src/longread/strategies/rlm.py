"""The code-writing RLM loop: the root model writes Python that runs in the sandboxed REPL, sees
what it printed, and repeats until it calls FINAL(...) or runs out of turns."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from longread.answer import Answer
from longread.errors import BudgetExceededError
from longread.events import EventKind
from longread.llm.base import LM
from longread.llm.usage import Purpose, at_depth
from longread.query.core.plan import Shape
from longread.repl import isolation
from longread.repl.sandbox import CellResult, Sandbox, describe
from longread.strategies.common import Run
from longread.strategies.planning import plan_for
from longread.strategies.rlm_count import ShownCount
from longread.strategies.rlm_prompts import (
    COUNTED,
    COUNTING,
    EARLIER,
    FIRST_STEP,
    NO_CODE,
    NO_CODE_YET,
    OUT_OF_TURNS,
    REPEATED,
    REPEATED_OFFER,
    SYSTEM,
    UNSEEN,
)
from longread.text.claims import CHECKED_CHARS
from longread.text.cut import truncate_middle
from longread.text.slices import ContextSlicer
from longread.tools.context_tools import ContextTools
from longread.tools.extract import instruction_for
from longread.tools.toolset import Brief, Toolset

_FENCE = re.compile(r"```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_CODE_LANGS = {"repl", "python", "py", "python3", ""}
CPU_REPLY_TOKENS = 384  # a root turn's longest reply from a model on this CPU
_NAMES_CONTEXT = re.compile(r"\bcontext\b")
STALE_LIMIT = (
    2  # after this many turns in a row of only repeated code, the loop asks for the last word
)


def code_blocks(reply: str) -> list[str]:
    """Python blocks of a reply: fenced as ```repl, ```python or bare ```; a reply that is itself
    valid Python containing a call (e.g. `FINAL("42")`) counts as one block."""
    blocks = [m.group(2) for m in _FENCE.finditer(reply) if m.group(1).lower() in _CODE_LANGS]
    blocks = [b for b in blocks if b.strip()]
    if blocks or "```" in reply:
        return blocks
    try:
        tree = ast.parse(reply)
    except SyntaxError:
        return []
    return [reply] if any(isinstance(n, ast.Call) for n in ast.walk(tree)) else []


class RLMLoop:
    """One RLM (root or child) over one context."""

    def __init__(
        self,
        run: Run,
        context: Any = None,
        slicer: ContextSlicer | None = None,
        doc_id: str = "context",
        tools: Toolset | None = None,
    ):
        """Explore `tools` (an indexed document's), or by default the in-memory `context`."""
        self.run = run
        self.context = context
        self.tools = tools or ContextTools(
            slicer or _slicer_for(context, run),
            run.sub,
            run.gateway,
            context=context,
            doc_id=doc_id,
        )
        # --max-depth counts RLM levels: at the last one, rlm_query is a plain sub-call
        self.tools.recurse = self._child if run.depth + 1 < run.options.max_depth else None
        self.feedback_chars = max(1_500, min(8_000, run.root.context_window // 3))
        self.last_output = ""
        self.looked = (
            False  # has any code touched the document? (FINAL before that is refused once)
        )
        self.refused_unseen = False
        self.ran: set[str] = set()
        self.example = ""  # the first step, shown again with a refused FINAL
        self.stale_turns = 0  # turns in a row that only repeated code already run
        self.counted: ShownCount | None = None  # a counting question's count by structure
        self.said = ""  # the last reply without code

    def _child(self, prompt: str, source: Any) -> str:
        """A child RLM, one level deeper, over `source` (in memory); its calls share our budget."""
        root = self.run.sub if self.run.sub.writes_code else self.run.root
        child_run = replace(self.run, root=root, depth=self.run.depth + 1, conversation=None)
        return RLMLoop(child_run, source).answer(prompt).text

    def answer(self, question: str) -> Answer:
        with at_depth(self.run.depth):  # every model call made for this RLM is counted at its depth
            return self._answer(question)

    def system_prompt(self, brief: Brief) -> str:
        """The root model's instructions: the source, how to read it, the REPL's functions."""
        functions = self.tools.functions()
        own = [
            name for name in functions if name not in Toolset.CORE_NAMES and name != "context_read"
        ]
        return SYSTEM.format(
            intro=brief.intro,
            guide=brief.guide,
            core=self.tools.core_doc(),
            tools="\n".join(describe(name, functions[name]) for name in own),
        )

    def _answer(self, question: str) -> Answer:
        o = self.run.options
        brief = self.tools.brief(question)
        self.example = brief.first_step
        functions = self.tools.functions()
        system = self.system_prompt(brief)
        turns = 0
        with self._sandbox(functions, brief) as sandbox:
            self.sandbox = sandbox
            self.run.emit(EventKind.SANDBOX, isolated=sandbox.isolated, layers=sandbox.layers)
            if not sandbox.isolated and self.run.depth == 0:
                self.run.emit(EventKind.WARNING, text=isolation.warning(sandbox.layers))
            messages = [
                {"role": "system", "content": system},
                {
                    "role": "user",
                    "content": self._first_step(sandbox, question, brief.first_step_reads),
                },
            ]
            try:
                for turns in range(1, o.max_iterations + 1):
                    final = self._turn(sandbox, messages, turns)
                    if final is not None:
                        return self._done(final, turns, question)
                    if self.stale_turns == STALE_LIMIT:
                        return self._done(
                            self._last_word(sandbox, messages),
                            turns,
                            question,
                            stopped_by="repeated_code",
                        )
                return self._done(
                    self._last_word(sandbox, messages), turns, question, stopped_by="max_iterations"
                )
            except BudgetExceededError as error:
                error.partial = self._done(
                    self.tools.hypothesis.current or self.last_output,
                    turns,
                    question,
                    stopped_by=error.limit,
                )
                raise

    @contextmanager
    def _sandbox(self, functions: dict[str, Any], brief: Brief) -> Iterator[Sandbox]:
        """The REPL: a new one, or in a conversation the one its earlier questions used (kept
        open for the next, its variables with it) while the source offers the same functions."""
        o, gateway, conversation = self.run.options, self.run.gateway, self.run.conversation
        sandbox = conversation.repl if conversation is not None else None
        if sandbox is not None and set(sandbox.tools) != set(functions):
            sandbox.close()  # (the source gained functions, a summary tree say: a new REPL)
            sandbox = None
        if sandbox is not None:
            sandbox.rebind(functions, gateway.deadline, gateway.cancelled)
        else:
            sandbox = Sandbox(
                functions,
                brief.context,
                variables=brief.variables,
                context_length=brief.context_length,
                cell_timeout=o.cell_timeout,
                memory_mb=o.memory_mb,
                run_deadline=gateway.deadline,
                cancelled=gateway.cancelled,
            )
            sandbox.start()
        try:
            yield sandbox
        finally:
            if conversation is None:
                sandbox.close()
            else:
                conversation.repl = sandbox

    def _first_step(self, sandbox: Sandbox, question: str, reads: bool) -> str:
        """The question, with the example search already run: every model starts from passages.
        A FINAL right after it is refused once as a guess unless the search showed the source's
        own text (`reads`: a document's best sentences; a corpus's ranking is not yet reading)."""
        self.ran.add(self.example.strip())
        result = self._execute(sandbox, self.example, 0, 1)
        self.tools.touched = reads
        output = truncate_middle(result.render(), self.feedback_chars)
        step = self._earlier(sandbox) + FIRST_STEP.format(
            question=question, example=self.example, output=output
        )
        if self.run.depth > 0:  # (a child answers a part; the question was counted at the top)
            return step
        plan = plan_for(question, self.tools, self.run)
        if plan.shape is not Shape.AGGREGATE:
            return step
        self.counted = ShownCount.made(plan, self.tools, self.run)
        if self.counted is not None:
            self.tools.touched = True  # (the count read the whole text: a FINAL may follow)
            return step + COUNTED.format(lead=self.counted.lead)
        return step + COUNTING.format(
            instruction=instruction_for(question), words=list(plan.starts)
        )

    def _earlier(self, sandbox: Sandbox) -> str:
        """In a conversation: its earlier questions and answers, and the variables made for them."""
        conversation = self.run.conversation
        if conversation is None or not conversation.turns:
            return ""
        made = self._execute(sandbox, "SHOW_VARS()", 0, 0).render()
        return EARLIER.format(
            history=conversation.history(), variables=truncate_middle(made, 1_500)
        )

    def _turn(self, sandbox: Sandbox, messages: list[dict[str, str]], turn: int) -> str | None:
        reply = self._ask_root(messages, purpose=Purpose.ROOT)
        self.run.emit(EventKind.ROOT_TURN, turn=turn, reply=reply)
        messages.append({"role": "assistant", "content": reply})
        blocks = code_blocks(reply)
        if not blocks and self.counted is not None and self.counted.said_in(reply):
            return self.counted.lead  # (the count shown, said back: sent as shown)
        if not blocks and reply.strip() == self.said:
            if _copies(reply, messages[0]["content"]):
                self.stale_turns = STALE_LIMIT  # (lost: it copies its instructions; last word)
                return None
            if self.looked:
                return reply.strip()  # (the same answer again, without code, after NO_CODE)

        if not blocks:
            self.said = reply.strip()
            self.looked = self.looked or self.tools.touched
            advice = (
                NO_CODE.format(answer=" ".join(reply.split())[:300])
                if self.looked
                else NO_CODE_YET.format(example=self.example)
            )
            messages.append({"role": "user", "content": advice})
            return None
        feedback = []
        repeats = [code.strip() in self.ran and "FINAL" not in code for code in blocks]  # a refused
        self.stale_turns = self.stale_turns + 1 if all(repeats) else 0  # FINAL may be sent again
        for number, (code, repeated) in enumerate(zip(blocks, repeats, strict=True), 1):
            if repeated:
                advice = (
                    REPEATED_OFFER.format(answer=self.last_output[:400])
                    if self.looked
                    else REPEATED
                )
                feedback.append(f"Output of block {number}:\n{advice}")
                continue
            self.ran.add(code.strip())
            result = self._execute(sandbox, code, turn, number)
            final = self._accepted_final(result)
            if final is not None:
                return final
            output = truncate_middle(result.render(), self.feedback_chars)
            feedback.append(f"Output of block {number}:\n{output}")
        messages.append({"role": "user", "content": "\n\n".join(feedback)})
        return None

    def _accepted_final(self, result: CellResult) -> str | None:
        """FINAL's value, unless it came before any code looked at the context (refused once)."""
        self.looked = self.looked or self.tools.touched
        if result.final is None or self.looked or self.refused_unseen:
            return result.final
        self.refused_unseen = True
        result.notices.append(UNSEEN.format(example=self.example))
        return None

    def _execute(self, sandbox: Sandbox, code: str, turn: int, block: int) -> CellResult:
        self.run.emit(EventKind.CODE, turn=turn, block=block, code=code)
        self.looked = self.looked or bool(_NAMES_CONTEXT.search(code))
        result = sandbox.run(code)
        result.notices += self.tools.take_notices()
        if result.output.strip():
            self.last_output = result.output.strip()
        self.run.emit(
            EventKind.OUTPUT,
            turn=turn,
            block=block,
            output=result.render(),
            final=result.final,
            seconds=round(result.seconds, 3),
        )
        return result

    def _last_word(self, sandbox: Sandbox, messages: list[dict[str, str]]) -> str:
        """After the last turn: one more call for the best answer so far, as text; from a model
        that only copies its instructions, the best the loop has (the count the first step
        made, else the latest finding or output)."""
        messages.append({"role": "user", "content": OUT_OF_TURNS})
        reply = self._ask_root(messages, purpose=Purpose.ROOT_FINAL)
        for code in code_blocks(reply):
            result = self._execute(sandbox, code, 0, 1)
            if result.final is not None:
                return result.final
        if _copies(reply, messages[0]["content"]):
            if self.counted is not None:
                return self.counted.lead
            return self.tools.hypothesis.current or self.last_output or reply
        return _FENCE.sub(lambda m: m.group(2), reply).strip()

    def _ask_root(self, messages: list[dict[str, str]], purpose: Purpose) -> str:
        root = self.run.root
        max_tokens = reply_tokens(root)
        fitted = _fit_history(messages, root.context_window - max_tokens, root.count_tokens)
        return self.run.gateway.complete(root, fitted, purpose=purpose, max_tokens=max_tokens).text

    def _done(self, text: str, turns: int, question: str, stopped_by: str | None = None) -> Answer:
        text = text.strip() or "No answer was reached."
        self.run.emit(EventKind.FINAL, answer=text, turns=turns)
        counted = self.counted
        return Answer(
            text=text,
            mode="rlm",
            citations=(
                counted.answer.citations  # (it says the count the first step made: its records)
                if counted is not None and counted.said_in(text)
                else self.tools.cite(text[:CHECKED_CHARS], question)  # (as its claims are)
            ),
            computed=counted.answer.text if counted is not None else "",
            usage=self.run.gateway.usage.to_dict(),
            stats={
                "turns": turns,
                "restarts": self.sandbox.restarts,
                "hypothesis_history": list(self.tools.hypothesis.history),
            },
            stopped_by=stopped_by,
        )


def _copies(reply: str, instructions: str) -> bool:
    """Whether a reply begins by copying the instructions it was given (a lost small model)."""
    start = " ".join(reply.split())[:120]
    return len(start) >= 40 and start in " ".join(instructions.split())


def reply_tokens(root: LM) -> int:
    """The most a root turn may write: a code cell or an answer. A model on this CPU gets less
    (measured: Qwen2.5-Coder-1.5B, when lost, copied its instructions for 1,024 tokens a turn,
    over a minute each)."""
    return min(CPU_REPLY_TOKENS if root.on_cpu else 1024, root.context_window // 4)


def _slicer_for(context: Any, run: Run) -> ContextSlicer:

    if not run.options.enable_slicing:
        return ContextSlicer()
    return ContextSlicer.from_context(context, chunk_chars=run.options.slice_chars)


def _fit_history(messages: list[dict[str, str]], budget: int, count: Any) -> list[dict[str, str]]:
    """System + question + as many recent turns as fit in `budget` tokens (older ones dropped)."""
    head, turns = messages[:2], messages[2:]
    used = sum(count(m["content"]) for m in head)
    kept: list[dict[str, str]] = []
    for message in reversed(turns):
        cost = count(message["content"])
        if used + cost > budget and kept:
            break
        kept.insert(0, message)
        used += cost
    if len(kept) < len(turns):
        if kept and kept[0]["role"] == "user":
            kept.pop(0)
        dropped = len(turns) - len(kept)
        note = f"\n\n({dropped} earlier messages were dropped to fit the context window.)"
        head = [head[0], {**head[1], "content": head[1]["content"] + note}]
    return head + kept
