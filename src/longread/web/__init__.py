"""The web app: upload or paste documents, ask with any mode, watch the run live, read
the answer with its citations. `create_app` builds it; `longread serve` runs it."""

from longread.web.app import create_app

__all__ = ["create_app"]
