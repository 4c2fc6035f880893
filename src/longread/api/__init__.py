"""The public Python API: `SingleDocRLM` (a file), `MultiDocRLM` (a folder of documents) and
`RLM_REPL` (a context held in memory), the names users know, with the settings they take."""

from longread.api.context import RLM_REPL
from longread.api.corpus import MultiDocRLM
from longread.api.document import SingleDocRLM
from longread.index.tree import TreeOptions
from longread.llm.usage import Budget
from longread.strategies.common import RunOptions

__all__ = ["RLM_REPL", "Budget", "MultiDocRLM", "RunOptions", "SingleDocRLM", "TreeOptions"]
