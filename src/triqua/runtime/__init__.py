"""How a check runs: the runner, settings-keyed resources, caches, checkpoints and limits."""
