"""Bot-vs-bot tournaments: formats (who meets whom), standings, and the service that plans,
starts and scores their matches (run by the worker's scheduler, state in Redis)."""
