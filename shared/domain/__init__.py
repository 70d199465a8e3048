"""The vocabulary every layer shares: the errors services raise (``errors``) and the API turns
into problem+json.
"""
