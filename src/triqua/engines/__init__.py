"""Engines that answer triqua's LLM roles: LangChain chat models and the offline engine."""
