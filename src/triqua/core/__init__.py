"""LangGraph-free domain logic: grounding, verdict settling, routing, deadlines, redaction."""
