"""Running the check graph: the one runner and durable (checkpointed) runs."""
