"""The game kernel: the protocol every engine implements (``protocol``, ``state``), the
search budget games register cut-offs for (``budget``) and the engines' random draws
(``rng``). No I/O; it imports nothing else of Evo Arena.
"""
