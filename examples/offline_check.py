"""triqua on the offline engine: real verdicts with no key, no model and no network.

Checks the Eiffel Tower text of the other examples against its two evidence passages with
the rule decomposer and the MiniLM evidence-window verifier, then prints each fact with its
verdict, the wrong unit and the evidence sentence the verdict rests on.
Run: ``python examples/offline_check.py``.
"""

from __future__ import annotations

from _fake import DOCUMENTS, QUESTION, TEXT

import triqua


def main() -> triqua.Report:
    """Check the example text offline and print what each verdict rests on."""
    report = triqua.check(TEXT, question=QUESTION, documents=DOCUMENTS, store=False)
    for record in report.records:
        verdict = record.verdict
        line = f"{record.claim_id} {verdict.status.value:<22} {record.claim_text}"
        if verdict.wrong_components:  # contradicted units are wrong; the others unverified
            label = "wrong" if verdict.status is triqua.Status.CONTRADICTED else "unverified"
            line += f"  {label}: {', '.join(verdict.wrong_components)}"
        print(line)
        if verdict.quote:
            print(f"    evidence: {verdict.quote!r}")
    score = "undefined" if report.score is None else f"{report.score:.1%}"
    print(f"TriQuaScore {score} · engine {report.engine}")
    return report


if __name__ == "__main__":
    main()
