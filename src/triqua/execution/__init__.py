"""Running the check graph: the one runner, durable (checkpointed) runs, the report cache."""
