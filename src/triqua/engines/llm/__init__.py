"""The chat-model engine: any LangChain chat model, through structured output.

Verification and query refinement (``engine``), decomposition (``decompose``), the
batched verification call and its answers (``batch_prompt``, ``batch``), and the structured
calls with retries, deadlines and usage they all make (``calls``).
"""
