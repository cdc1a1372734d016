"""What a run may spend and did spend.

Limits on model calls and the notes a stopped run carries (``limits``), the deadline of one
blocking call (``deadline``), costs (``costs``) and usage per role (``usage``).
"""
