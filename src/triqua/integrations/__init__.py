"""triqua inside other agents: a LangChain tool or a node of a parent graph."""
