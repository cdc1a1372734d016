"""Facts and routes: which facts are checked, how, and in which calls.

Facts given or decomposed, founded in their text and capped (``given_facts``, ``founded``,
``fact_limits``); the element graph's routes, element claims and contextual claims
(``routing``, ``element_claims``, ``contextual``); verification batches with their evidence
sheet (``verify_batches``, ``evidence_sheet``) and evidence searches (``evidence``).
"""
