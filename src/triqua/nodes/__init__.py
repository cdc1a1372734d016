"""Graph nodes, one module per node."""
