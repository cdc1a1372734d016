"""What runs leave on disk besides the store: checkpoints, and their pruning and deletion."""
