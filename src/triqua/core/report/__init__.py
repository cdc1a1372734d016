"""What a run says and how it ends.

The report assembled from its claim records (``run_report``, ``records``), sentence
verdicts (``sentence_verdicts``), coverage and failure accounting (``accounting``), and the
commands' exit codes (``exit_codes``).
"""
