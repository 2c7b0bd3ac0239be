"""Hostile input, how user text is shown (issue 28): at the Python door a no-break
space reads as a space, a control or invisible character is named by its code point
(never raw in an exception), and a game file in another encoding is named as such."""

import re

import pytest

import arbiter

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def test_a_no_break_space_reads_as_a_space():
    g = arbiter.Game()
    g.set_orders("FRANCE", ["A PAR -\u00a0BUR", "A MAR - \u00a0SPA"])
    assert len(g.get_orders("FRANCE")) == 2


@pytest.mark.parametrize("bad", ["\x1b[2J", "\x07", "\x00"])
def test_control_characters_in_orders_are_named(bad):
    g = arbiter.Game()
    with pytest.raises(arbiter.OrderError) as e:
        g.set_orders("FRANCE", [f"A PAR - {bad}BUR"])
    text = str(e.value)
    assert not RAW_CONTROL.search(text), repr(text)
    assert "<U+00" in text, text


def test_control_characters_in_power_names_are_named():
    g = arbiter.Game()
    with pytest.raises(Exception) as e:
        g.set_orders("FRA\x1bNCE", ["A PAR - BUR"])
    text = str(e.value)
    assert not RAW_CONTROL.search(text), repr(text)
    assert "FRA<U+001B ESCAPE>NCE" in text, text


def test_load_names_utf16_and_latin1(tmp_path):
    g = arbiter.Game()
    good = tmp_path / "g.yaml"
    g.save(str(good))
    text = good.read_text(encoding="utf-8")
    u16 = tmp_path / "u16.yaml"
    u16.write_bytes(text.encode("utf-16"))
    with pytest.raises(arbiter.GameFileError, match=r"UTF-16 \(little-endian\), not UTF-8: save it as UTF-8"):
        arbiter.Game.load(str(u16))
    lat = tmp_path / "lat.yaml"
    lat.write_bytes(text.replace("name: ", "name: caf\u00e9 ", 1).encode("latin-1"))
    with pytest.raises(arbiter.GameFileError, match=r"line \d+, column \d+: byte 0xE9 is not UTF-8 \(in Latin-1"):
        arbiter.Game.load(str(lat))
