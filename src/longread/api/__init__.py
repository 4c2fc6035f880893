"""The public Python API: `SingleDocRLM` (a file), `MultiDocRLM` (a folder of documents) and
`RLM_REPL` (a context held in memory), the names users know."""

from longread.api.context import RLM_REPL
from longread.api.corpus import MultiDocRLM
from longread.api.document import SingleDocRLM

__all__ = ["RLM_REPL", "MultiDocRLM", "SingleDocRLM"]
