"""The container files promise what an admin relies on. (No Docker engine here: the image is
linted by hadolint in ``./dev lint``; these tests read the files.)"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from bot.settings import load_settings

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "deploy" / "Dockerfile"
COMPOSE = REPO / "deploy" / "compose.yaml"


def instructions(stage: int | None = None) -> list[tuple[str, str]]:
    """The Dockerfile's (INSTRUCTION, arguments), continuation lines joined; one stage if given."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    if stage is None:
        return found
    starts = [i for i, (word, _) in enumerate(found) if word == "FROM"]
    ends = [*starts[1:], len(found)]
    return found[starts[stage] : ends[stage]]  # -1: the final stage


def test_the_image_is_built_in_stages_on_a_pinned_node_and_a_pinned_slim_python() -> None:
    bases = [args for word, args in instructions() if word == "FROM"]
    assert len(bases) == 3
    assert re.match(r"node:20\.\d+\.\d+-\w+-slim AS client", bases[0]), bases[0]
    for base in bases[1:]:
        assert re.match(r"python:3\.11\.\d+-slim-\w+", base), base
    client = instructions(0)
    assert ("RUN", "npm ci --no-audit --no-fund") in client
    assert ("RUN", "npm run build") in client
    assert ("COPY", "--from=client /client/dist ./bot/web/client/dist") in instructions(1)
    assert ("COPY", "--from=build /opt/kortbord /opt/kortbord") in instructions(-1)


def test_the_image_serves_the_web_table_on_its_port() -> None:
    final = instructions(-1)
    env = " ".join(args for word, args in final if word == "ENV")
    assert "KORTBORD_WEB_PORT=8080" in env
    assert ("EXPOSE", "8080") in final
    wheel = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'artifacts = ["bot/web/client/dist/**"]' in wheel  # the built client is in the package


def test_the_bot_runs_as_a_user_without_privileges_with_its_database_on_a_volume() -> None:
    final = instructions(-1)
    users = [args for word, args in final if word == "USER"]
    assert users
    assert users[-1] not in ("root", "0", "0:0")
    assert not users[-1].startswith("0:")
    assert ("VOLUME", '["/data"]') in final
    env = " ".join(args for word, args in final if word == "ENV")
    assert "KORTBORD_DATABASE=/data/kortbord.sqlite3" in env


def test_the_healthcheck_runs_kortbord_health_and_sigterm_stops_it() -> None:
    final = dict(instructions(-1))
    assert final["HEALTHCHECK"].endswith('CMD ["kortbord", "health"]')
    assert final["STOPSIGNAL"] == "SIGTERM"
    assert final["ENTRYPOINT"] == '["kortbord"]'
    assert final["CMD"] == '["run"]'


def test_the_build_context_leaves_out_secrets_and_local_data() -> None:
    lines = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert "*" in lines  # everything is left out unless named
    named = {line[1:] for line in lines if line.startswith("!")}
    assert named == {"pyproject.toml", "uv.lock", "README.md", "bot/", "games/"}
    # the web table's client is built in the image, from its sources and lock file only
    assert "bot/web/client/node_modules" in lines
    assert "bot/web/client/dist" in lines


def test_compose_reads_env_keeps_the_database_on_a_named_volume_and_restarts() -> None:
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    bot = compose["services"]["bot"]
    assert bot["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert bot["env_file"] == ".env"
    assert bot["environment"]["KORTBORD_DATABASE"] == "/data/kortbord.sqlite3"
    volume, _, target = bot["volumes"][0].partition(":")
    assert target == "/data"
    assert volume in compose["volumes"]
    assert bot["restart"] in ("unless-stopped", "always", "on-failure")
    assert bot["stop_signal"] == "SIGTERM"
    assert int(bot["stop_grace_period"].rstrip("s")) >= 30
    # the web table, for the TLS proxy on the same machine only (README: The web table)
    assert bot["ports"] == ["127.0.0.1:8080:8080"]


CLUSTER = REPO / "deploy" / "compose.cluster.yaml"


def test_the_cluster_runs_two_processes_on_disjoint_shards_of_one_postgresql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compose = yaml.safe_load(CLUSTER.read_text(encoding="utf-8"))
    services = compose["services"]
    postgres = services.pop("postgres")
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert len(services) == 2
    served: list[int] = []
    volumes = set()
    for name, bot in services.items():
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert bot["healthcheck"]["test"] == ["CMD", "kortbord", "health"], name
        assert bot["stop_signal"] == "SIGTERM"
        volumes.add(bot["volumes"][0].partition(":")[0])
        for key in list(os.environ):
            if key.startswith("KORTBORD_") and not key.startswith("KORTBORD_TEST_"):
                monkeypatch.delenv(key)
        for key, value in bot["environment"].items():
            monkeypatch.setenv(key, value)
        settings = load_settings(None)
        assert settings.postgres
        assert "@postgres:5432/" in str(settings.database)
        assert settings.shard_range is not None
        served += settings.shard_range.ids
        count = settings.shard_range.count
    # every shard is served, by exactly one process; each keeps its heartbeat on its own volume
    assert sorted(served) == list(range(count))
    assert len(volumes) == 2
    assert volumes <= set(compose["volumes"])
