"""The offline verifier: facts aligned with evidence sentences, judged by rules and entailment."""
