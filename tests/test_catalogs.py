"""The catalogs (web/i18n/<lang>/*.json, scripts/catalogs.py): every
translation says the same placeholders as its English text, plural texts
have their "other" form, and no key is in two files."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import catalogs  # noqa: E402

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}", re.I)
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def forms(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    assert isinstance(value, dict) and value, f"a text is a string or plural forms, not {value!r}"
    assert set(value) <= PLURAL_FORMS and "other" in value, f"plural forms need 'other': {sorted(value)}"
    assert all(isinstance(v, str) for v in value.values())
    return list(value.values())


def names(value: object) -> set[str]:
    return {n for text in forms(value) for n in PLACEHOLDER.findall(text)}


ENGLISH = catalogs.load("en")


@pytest.mark.parametrize("lang", catalogs.LANGS)
def test_catalog_texts_are_well_formed(lang: str) -> None:
    table = catalogs.load(lang)
    for key, value in table.items():
        assert re.fullmatch(r"[a-z0-9_]+(\.[A-Za-z0-9_]+)+", key), f"{lang}: key {key!r}"
        forms(value)


@pytest.mark.parametrize("lang", [code for code in catalogs.LANGS if code != "en"])
def test_translations_keep_the_placeholders(lang: str) -> None:
    table = catalogs.load(lang)
    extra = sorted(set(table) - set(ENGLISH))
    assert not extra, f"{lang} has keys English lacks: {extra[:10]}"
    for key, value in table.items():
        # plural forms may leave out {count} in a form ("one card"), never add a name
        want, got = names(ENGLISH[key]), names(value)
        assert got <= want | {"count"} and want - got <= {"count"}, f"{lang} {key}: {sorted(got)} vs {sorted(want)}"
