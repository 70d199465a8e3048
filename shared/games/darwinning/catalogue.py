"""Darwinning!'s component catalogue (``Game.components()``): environments, abilities,
species boards and the 92 cards.

Keys as the views carry them: an environment is its index in the data (``envs``), an ability
its number (a board's ``slots`` hold ``-n`` for a printed ability ``n``), a species board its
id (``"frog"``), a card its number (``hand``, ``slots``, ``trick``…; ``0..89`` the ability
cards, ``90`` and ``91`` the jokers). Species boards and card icons are a RECONSTRUCTION.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.kernel.catalogue import (
    Component,
    catalogue,
    component,
    from_template,
    load_texts,
    name_of,
    table_pieces,
    text_of,
)

from .cards import DATA, ENV_INDEX


def build(game_id: str, data_dir: Path, lang: str) -> dict[str, Any]:
    texts = load_texts(data_dir, lang)
    envs = {e["id"]: name_of(texts, "environment", ENV_INDEX[e["id"]], e["name"])
            for e in DATA["environments"]}
    abilities = {a["number"]: name_of(texts, "ability", a["number"], a["name"])
                 for a in DATA["abilities"]}
    out = [component("environment", ENV_INDEX[env], name,
                     from_template(texts, "environment", name=name), icons=[env])
           for env, name in envs.items()]
    out += [component("ability", a["number"], abilities[a["number"]],
                      text_of(texts, "ability", a["number"]),
                      numbers={"number": a["number"], "food": a["food"], "reach": a["reach"]},
                      icons=[f"ability-{a['number']}"])
            for a in DATA["abilities"]]
    out += [_species(texts, s, envs, abilities) for s in DATA["species"]]
    out += [_card(texts, number, card, envs, abilities)
            for number, card in enumerate(DATA["cards"])]
    out += table_pieces(DATA["table"], texts)
    return catalogue(game_id, lang, texts, out, DATA["rules"])


def _species(texts: dict[str, Any], species: dict[str, Any], envs: dict[str, str],
             abilities: dict[int, str]) -> Component:
    text = from_template(
        texts, "species", name=name_of(texts, "species", species["id"], species["name"]),
        food_chain=species["food_chain"], population=species["population"],
        environments=", ".join(f"{envs[e]} {food}" for e, food in species["environments"].items()),
        abilities=", ".join(abilities[a] for a in species["abilities"]))
    numbers = {"food_chain": species["food_chain"], "population": species["population"]}
    numbers |= {f"food_{env}": food for env, food in species["environments"].items()}
    return component(
        "species", species["id"], name_of(texts, "species", species["id"], species["name"]), text,
        numbers=numbers, icons=[species["id"]],
        parts=[f"ability:{a}" for a in species["abilities"]]
        + [f"environment:{ENV_INDEX[e]}" for e in species["environments"]],
        reconstruction=True)


def _card(texts: dict[str, Any], number: int, card: dict[str, Any], envs: dict[str, str],
          abilities: dict[int, str]) -> Component:
    icon = card["icon"]
    if icon is None:  # a joker
        return component("card", number,
                         name_of(texts, "card", number, from_template(texts, "joker_name")),
                         from_template(texts, "joker"),
                         numbers={"value": 0}, icons=["joker"])
    value, colour = card["value"], card["colour"]
    numbers = {"value": value}
    # The colour by its name in the language (texts' labels: "colour_acorn"), the key as is.
    named = str(texts.get("labels", {}).get(f"colour_{colour}", colour))
    parts = [f"ability:{value}"]
    if icon["kind"] == "environment":
        text = from_template(texts, "card_environment", value=value, colour=named,
                             environment=envs[icon["environment"]], ability=abilities[value])
        icons = ["environment", icon["environment"]]
        parts.append(f"environment:{ENV_INDEX[icon['environment']]}")
    else:
        numbers[icon["kind"]] = icon["amount"]
        text = from_template(texts, f"card_{icon['kind']}", value=value, colour=named,
                             amount=icon["amount"], ability=abilities[value])
        icons = [icon["kind"]]
    name = from_template(texts, "card_name", value=value, colour=named)
    return component("card", number, name, text, numbers=numbers, colour=colour,
                     icons=icons, parts=parts, reconstruction=True)
