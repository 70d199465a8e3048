"""Command-line tools of Evo Arena (``python -m evo_arena``): clients of the HTTP API only."""
