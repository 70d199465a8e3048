"""The vocabulary every layer shares: the errors services raise (``errors``) and the API turns
into problem+json, and the domain's closed vocabularies and record shapes (``types``: match
statuses, seat kinds, the stored seat records), and what a person's name may hold
(``names``: one rule for seat, account, entrant and tournament names).
"""
