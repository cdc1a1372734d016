"""Graph builders: the main check graph and the per-batch verification subgraph."""

from triqua.graph.main import build_graph
from triqua.graph.verification import build_verification_graph

__all__ = ["build_graph", "build_verification_graph"]
