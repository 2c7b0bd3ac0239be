"""Hostile files at the Python door (issue 28, items 1, 3, 5, 10): `Game.save` takes the
game's lock and saves as `arbiter judge` does (atomic, a `.bak` that is never a link,
refused over a file another writer changed since it was loaded), so no interleaving of
Python and the CLI loses a phase; `Game.load` never hangs on a FIFO. docs/CLI.md,
"Files: one reader, one writer, one lock"."""

import fcntl
import os
import subprocess
import threading
import time

import pytest

import arbiter


def judged(path):
    return sum(1 for l in open(path, encoding="utf-8") if l.startswith("- phase:"))


def play(g):
    """One phase with an order (a phase with none cannot be written as a game file)."""
    g.set_orders("FRANCE", ["A PAR H"])
    g.process()


def new_game(cli, path):
    out = subprocess.run([cli, "new", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


@pytest.fixture
def short_waits(monkeypatch):
    monkeypatch.setenv("ARBITER_LOCK_WAIT_MS", "300")
    monkeypatch.setenv("ARBITER_FIFO_WAIT_MS", "300")


def test_save_waits_for_the_lock_and_refuses_while_it_is_held(cli, tmp_path, short_waits):
    path = tmp_path / "g.yaml"
    new_game(cli, path)
    before = path.read_bytes()
    g = arbiter.Game.load(path)
    play(g)
    with open(tmp_path / ".g.yaml.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with pytest.raises(arbiter.GameFileError, match="is in use"):
            g.save(path)
        assert path.read_bytes() == before
    # Released: the save goes through.
    g.save(path)
    assert judged(path) == 1


def test_save_refuses_at_once_while_the_game_is_served(cli, tmp_path):
    path = tmp_path / "g.yaml"
    new_game(cli, path)
    g = arbiter.Game.load(path)
    play(g)
    with open(tmp_path / ".g.yaml.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.write("arbiter serve (process 4242) at http://127.0.0.1:8080/")
        lock.flush()
        started = time.monotonic()
        with pytest.raises(arbiter.GameFileError, match="is being served"):
            g.save(path)
        assert time.monotonic() - started < 2
    assert judged(path) == 0


def test_save_over_a_game_changed_since_load_is_refused(cli, tmp_path):
    path = tmp_path / "g.yaml"
    new_game(cli, path)
    g = arbiter.Game.load(path)
    play(g)
    slip = tmp_path / "france.txt"
    slip.write_text("France:\nA Par H\n")
    out = subprocess.run([cli, "judge", str(path), str(slip)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    with pytest.raises(arbiter.GameFileError, match="changed by another command"):
        g.save(path)
    # The CLI's phase is still there (before: overwritten by Python's).
    assert "A Par H" in path.read_text()
    # Saved under another name, or loaded again, it saves.
    g.save(tmp_path / "other.yaml")
    again = arbiter.Game.load(path)
    play(again)
    again.save(path)
    assert judged(path) == 2


def test_backup_is_a_regular_file_never_a_link(cli, tmp_path):
    path = tmp_path / "g.yaml"
    new_game(cli, path)
    before = path.read_bytes()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, tmp_path / "g.yaml.bak")
    g = arbiter.Game.load(path)
    play(g)
    g.save(path)
    bak = tmp_path / "g.yaml.bak"
    assert not bak.is_symlink() and bak.read_bytes() == before
    assert victim.read_text() == "keep me\n"
    # Atomic: no temporary file is left, and the mode is kept.
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".g.yaml.lock", "g.yaml", "g.yaml.bak", "victim.txt"]


def test_save_keeps_the_mode(cli, tmp_path):
    path = tmp_path / "g.yaml"
    new_game(cli, path)
    os.chmod(path, 0o600)
    g = arbiter.Game.load(path)
    play(g)
    g.save(path)
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_load_of_a_fifo_nobody_writes_is_an_error_not_a_hang(tmp_path, short_waits):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(arbiter.GameFileError, match="FIFO"):
        arbiter.Game.load(fifo)
    assert time.monotonic() - started < 10


def test_python_and_cli_writers_lose_no_phase(cli, tmp_path):
    """Many concurrent pairs: a Python writer (load, process, save) and `arbiter judge`
    on one game. Every writer that says it saved has its phase in the file."""
    slip = tmp_path / "france.txt"
    slip.write_text("France:\nA Par H\n")
    env = dict(os.environ, ARBITER_LOCK_WAIT_MS="2000")
    for round in range(12):
        path = tmp_path / f"g{round}.yaml"
        new_game(cli, path)
        py_saved = []

        def python_writer():
            try:
                g = arbiter.Game.load(path)
                play(g)
                time.sleep(0.001 * (round % 4))
                g.save(path)
                py_saved.append(True)
            except arbiter.GameFileError as e:
                assert "changed by another command" in str(e) or "is in use" in str(e), e
                py_saved.append(False)

        t = threading.Thread(target=python_writer)
        proc = subprocess.Popen([cli, "judge", str(path), str(slip)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t.start()
        _, err = proc.communicate()
        t.join()
        cli_saved = proc.returncode == 0
        if not cli_saved:
            assert "in use" in err or "changed by another command" in err, err
        # Each save is allowed only over the file its writer loaded, and adds one
        # phase to it: the file holds one phase per writer that says it saved.
        assert judged(path) == int(cli_saved) + int(py_saved[0]), (round, cli_saved, py_saved, err)


def test_years_are_1_to_9999():
    for bad in (10000, 0, -5, 2147483647):
        with pytest.raises(arbiter.PhaseError, match="1 to 9999"):
            arbiter.Game(last_year=bad)
    assert arbiter.Game(last_year=1905).last_year == 1905
    with pytest.raises(arbiter.ArbiterError):
        arbiter.Game.from_position({"phase": "S10000M", "units": {"FRANCE": ["A PAR"]}})


# ---------------------------------------------------------------- session 9


def test_save_from_yaml_over_a_game_judged_elsewhere_is_refused(cli, tmp_path):
    """A Game made from the file's text (not loaded from it), then the file judged by
    the CLI: saving the Game over it would lose the CLI's phase."""
    path = tmp_path / "p.yaml"
    new_game(cli, path)
    g4 = arbiter.Game.from_yaml(path.read_text())
    slip = tmp_path / "fr.txt"
    slip.write_text("France:\nA PAR - BUR\n")
    out = subprocess.run([cli, "judge", str(path), str(slip)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    judged_by_cli = path.read_bytes()
    # Nothing processed yet: the file has a phase this game lacks.
    with pytest.raises(arbiter.GameFileError, match="has 1 judged phase this game does not"):
        g4.save(path)
    # Processed with other orders: the file's phase was judged otherwise.
    play(g4)
    with pytest.raises(arbiter.GameFileError, match="judged otherwise than in this game"):
        g4.save(path)
    assert path.read_bytes() == judged_by_cli
    # Loaded again, it plays on and saves.
    again = arbiter.Game.load(path)
    again.set_orders("FRANCE", ["A BUR H"])
    again.process()
    again.save(path)
    assert judged(path) == 2
    # A Game made from the text that has every phase of the file (and more) saves over it.
    g5 = arbiter.Game.from_yaml(path.read_text())
    g5.set_orders("FRANCE", ["A BUR H"])
    g5.process()
    g5.save(path)
    assert judged(path) == 3


def test_save_never_replaces_a_file_that_is_not_a_game(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("my notes\n")
    with pytest.raises(arbiter.GameFileError, match="is not an arbiter game file"):
        arbiter.Game().save(victim)
    assert victim.read_text() == "my notes\n"
    assert not (tmp_path / "victim.txt.bak").exists()
    # Its text is never quoted.
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:SECRET:/root:/bin/bash\n")
    with pytest.raises(arbiter.GameFileError) as e:
        arbiter.Game().save(secret)
    assert "SECRET" not in str(e.value)
    # A new file, or a game file with no judged phase, is saved over.
    arbiter.Game().save(tmp_path / "new.yaml")
    arbiter.Game().save(tmp_path / "new.yaml")
    assert (tmp_path / "new.yaml.bak").exists()


def test_save_never_writes_a_lock_file(cli, tmp_path):
    lock = tmp_path / ".pg.yaml.lock"
    lock.write_text("")
    with pytest.raises(arbiter.GameFileError, match="named as a game's lock file"):
        arbiter.Game().save(lock)
    assert lock.read_text() == ""
    with pytest.raises(arbiter.GameFileError, match="named as a game's lock file"):
        arbiter.Game().save(tmp_path / ".fresh.lock")
    assert not (tmp_path / ".fresh.lock").exists()
    assert not (tmp_path / "..fresh.lock.lock").exists()
