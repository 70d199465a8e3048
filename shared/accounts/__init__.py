"""Accounts: the service (``service``) and its Redis store (``store``, the only code that
touches ``evo:a:*`` keys).
"""
