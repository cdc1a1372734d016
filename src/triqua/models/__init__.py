"""The small local models, below tools/ so retrievers and engines alike can use them.

The MiniLM sentence embedder (Chroma's embedding function, the reranker, the offline
verifier's sentence vectors) and the entailment judge, with the hypotheses it reads and
the reader of meaning (``reader``) the grounding rule asks of it on both engines' paths.
"""
