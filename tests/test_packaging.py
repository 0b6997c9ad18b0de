"""What ``pip install remikit`` (no extras) gives: the core, the bots and the terminal
commands work without any web dependency, and ``remi serve`` says which extra it needs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg")
WITHOUT_WEB = f"import sys; sys.modules.update(dict.fromkeys({WEB!r}))\n"


def run(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter in which every web package fails to import."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_WEB + code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={"PYTHONPATH": str(ROOT), "LANG": "C"},
    )


def test_the_core_dependencies_hold_no_web_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("[")[0].strip() for d in project["dependencies"]}
    assert not names & set(WEB)
    assert {"fastapi", "uvicorn", "sqlalchemy", "alembic"} <= {
        d.split(">")[0].split("[")[0] for d in project["optional-dependencies"]["web"]
    }


def test_scoring_playing_and_bots_work_without_the_web_extra() -> None:
    done = run(
        "import random, remikit\n"
        "from remikit.bots import make_bot\n"
        "from remikit.bots.runner import play_game\n"
        "from remikit.variants.three_thirteen.rules import ThreeThirteenGame, "
        "ThreeThirteenOptions\n"
        "print(remikit.score('gin', remikit.parse_cards('As 2s 3s 7h 7d 7c Kd Kc Ks 9h')).points)\n"
        "game = ThreeThirteenGame(ThreeThirteenOptions(players=2), rng=random.Random(1))\n"
        "play_game(game, [make_bot('greedy', seed=1), make_bot('random', seed=2)])\n"
        "print(game.over)\n"
        "from remikit.cli.main import main\n"
        "sys.exit(main(['score', 'remi13d', '3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk', "
        "'--closing', 'Ah', '--json']))\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["9", "True"] and '"points": 135' in lines[2]


def test_remi_serve_without_the_web_extra_names_it() -> None:
    done = run("from remikit.cli.main import main\nsys.exit(main(['serve']))\n")
    assert done.returncode == 1
    assert "pip install 'remikit[web]'" in done.stderr and "Traceback" not in done.stderr


def test_the_environments_without_the_rl_extra_name_it() -> None:
    done = run(
        "sys.modules['pettingzoo'] = None  # not installed\n"
        "try:\n"
        "    from remikit.envs import gin_v0\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "remikit.envs needs pettingzoo: pip install 'remikit[rl]'"


def test_without_the_compiled_solver_remikit_runs_its_pure_python_search() -> None:
    """A machine without a C compiler installs remikit without ``remikit._solvercore``:
    scoring and matches work, and ``remi arena`` says once that it runs slower."""
    done = run(
        "sys.modules['remikit._solvercore'] = None  # the import fails, as when not built\n"
        "import remikit, remikit.solver\n"
        "print(remikit.solver.COMPILED)\n"
        "print(remikit.score('gin', remikit.parse_cards('As 2s 3s 7h 7d 7c Kd Kc Ks 9h')).points)\n"
        "from remikit.cli.main import main\n"
        "sys.exit(main(['arena', 'gin', '--bots', 'greedy,random', '--games', '2', '--json', "
        "'--lang', 'en']))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["False", "9"]
    assert done.stderr.count("without its compiled solver") == 1
