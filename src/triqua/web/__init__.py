"""``triqua serve``: a local page to paste text into, its verdicts streamed as they come."""
