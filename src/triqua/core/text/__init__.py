"""The text to check, before any fact exists.

Inputs validated before any work (``inputs``), the text's language (``language``), its
chunks (``chunking``, ``chunk_batches``), sentences set aside as too long
(``long_sentences``) and which sentences are check-worthy (``checkworthy``), with the one
opinion reader the offline decomposer shares (``opinion``) and whole-word phrase matching
(``phrases``).
"""
