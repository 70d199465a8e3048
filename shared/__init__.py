"""Pure-Python code shared by the API and the worker: the game protocol, the engines, the store."""
