"""Ratings: OpenSkill's Plackett-Luce model over accounts and built-in bots (``model``) and
its Redis store (``store``, the only code that touches ``evo:r:*`` keys).
"""
