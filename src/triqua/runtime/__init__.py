"""What a run is given: resources built from settings, the call cache, checkpoints on disk."""
