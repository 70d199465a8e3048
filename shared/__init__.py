"""Code shared by the API and the worker, in packages by layer and feature.

* ``kernel`` — the game protocol; ``games`` — the engines and their data (import only the
  kernel); ``search`` — ISMCTS over information sets (pure, used by bots and benches);
* ``matches``, ``accounts``, ``tournaments``, ``ratings``, ``bots`` — one folder a feature,
  each with its service and the one store that touches its keys;
* ``domain`` — errors every layer shares; ``infra`` — Redis, the queue, config, limits;
* ``services`` — builds the services from the settings (the API's and worker's one entry).
"""
