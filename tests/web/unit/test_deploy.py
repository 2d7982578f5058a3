"""The deployment files in ``deploy/`` (docs/deploy.md) at least parse and agree with the code.

No container engine or systemd runs here, so this is what is checked: the Compose file is YAML
of the expected shape; each ``stich serve`` command in it and in the systemd unit parses with the
real ``stich serve`` option parser (an option that main does not have yet is allowed only in the
services marked for the scale-out profile); nginx.conf has the WebSocket upgrade and no sticky
routing, keeps /metrics private and logs no query string (tokens); and ``nginx -t`` accepts it where
an nginx binary is installed (Debian's ``nginx`` package; skipped otherwise)."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import click
import pytest
import yaml

from stich.cli.main import cli

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"


def parse_serve(args: list[str]) -> dict:
    """The parameters ``stich serve ARGS`` would run with (click's own parser; raises on a bad option)."""
    cmd = cli.commands["serve"]
    return cmd.make_context("serve", list(args)).params


def test_compose_parses_and_its_commands_are_stich_serve_commands():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "stich-1", "nginx"} <= set(services)
    stich = {name: s for name, s in services.items() if name.startswith("stich-")}
    assert len(stich) >= 3
    ports = set()
    for s in stich.values():
        assert s["network_mode"] == "host" and s["stop_signal"] == "SIGTERM"
        assert s["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / s["build"]["context"] / s["build"]["dockerfile"]).resolve().is_file()
        command = s["command"]
        assert command[0] == "serve"
        if "scale" in s.get("profiles", []):
            continue  # with --redis (see scaling): options of the multi-process set-up
        params = parse_serve(command[1:])
        assert params["host"] == "127.0.0.1" and params["db"].startswith("postgresql://")
        ports.add(params["port"])
        assert "/readyz" in " ".join(s["healthcheck"]["test"])
    # main supports one process per database: exactly one stich service runs without the profile
    assert len(ports) == 1
    nginx = services["nginx"]
    mount = nginx["volumes"][0].split(":")
    assert (DEPLOY / mount[0]).resolve() == (DEPLOY / "nginx.conf") and mount[1] == "/etc/nginx/nginx.conf"
    upstreams = re.findall(r"^\s*server\s+127\.0\.0\.1:(\d+)", (DEPLOY / "nginx.conf").read_text(), re.M)
    assert {int(p) for p in upstreams} == ports


def test_prometheus_scrapes_each_process_that_runs():
    prom = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = prom["scrape_configs"][0]["static_configs"][0]["targets"]
    upstreams = re.findall(r"^\s*server\s+(127\.0\.0\.1:\d+)", (DEPLOY / "nginx.conf").read_text(), re.M)
    assert sorted(targets) == sorted(upstreams)


def test_systemd_unit_runs_a_valid_stich_serve():
    unit = configparser.ConfigParser(interpolation=None, strict=False, delimiters=("=",))
    unit.optionxform = str
    unit.read_string((DEPLOY / "systemd" / "stich@.service").read_text())
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    env = dict(line.split("=", 1) for line in (DEPLOY / "systemd" / "stich.env").read_text().splitlines()
               if line.strip() and not line.startswith("#"))
    exec_start = unit["Service"]["ExecStart"].replace("%i", "8001")
    exec_start = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], exec_start)
    argv = shlex.split(exec_start)
    assert argv[0].endswith("/stich") and argv[1] == "serve"
    params = parse_serve(argv[2:])
    assert params["port"] == 8001 and params["host"] == "127.0.0.1" and params["db"].startswith("postgresql://")
    assert unit["Service"]["KillSignal"] == "SIGTERM"
    target = configparser.ConfigParser(interpolation=None, strict=False)
    target.optionxform = str
    target.read_string((DEPLOY / "systemd" / "stich.target").read_text())
    assert "stich@8001.service" in target["Unit"]["Wants"]


def test_a_bad_option_would_be_caught():
    with pytest.raises(click.UsageError):
        parse_serve(["--no-such-option", "1"])


def _nginx_blocks_balanced(text: str) -> None:
    depth = 0
    for line in text.splitlines():
        code = line.split("#", 1)[0]
        code = re.sub(r"'[^']*'|\"[^\"]*\"", "", code)
        depth += code.count("{") - code.count("}")
        assert depth >= 0, line
    assert depth == 0


def test_nginx_conf_proxies_sockets_without_stickiness_or_tokens_in_logs():
    text = (DEPLOY / "nginx.conf").read_text()
    _nginx_blocks_balanced(text)
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    assert "proxy_set_header Upgrade $http_upgrade;" in code
    assert "proxy_set_header Connection $connection_upgrade;" in code
    assert not re.search(r"\b(ip_hash|sticky|hash\s)", code)
    assert re.search(r"location = /metrics\s*\{\s*deny all;\s*\}", code)
    fmt = re.search(r"log_format stich(.*?);", code, re.S).group(1)
    assert "$request " not in fmt and "$request_uri" not in fmt and "$args" not in fmt and "$uri" in fmt
    assert int(re.search(r"proxy_read_timeout (\d+)s", code).group(1)) > 40  # ping 20 s + timeout 20 s


def test_nginx_accepts_the_conf(tmp_path):
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if nginx is None:
        pytest.skip("no nginx binary (Debian: apt-get install nginx)")
    conf = tmp_path / "nginx.conf"
    # the pid file and the temporary folders are the host's; in the test they are under tmp_path
    temp = "".join(f"    {kind}_temp_path {tmp_path / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                            "scgi"))
    text = (DEPLOY / "nginx.conf").read_text().replace("/run/nginx-stich.pid", str(tmp_path / "pid"))
    conf.write_text(text.replace("http {\n", "http {\n" + temp, 1))
    out = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", "stderr"],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert "syntax is ok" in out.stderr


# --- docs/deploy.md, "Debian with systemd": what a person types on a fresh machine ---------------------
def debian_steps() -> list[list[str]]:
    """The commands of the sh block under "Debian with systemd" (comments dropped, one list per line)."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    section = text[text.index("## Debian with systemd"):]
    block = section[section.index("```sh\n") + 6:]
    block = block[:block.index("```")]
    return [argv for line in block.splitlines() if (argv := shlex.split(line, comments=True))]


def test_the_debian_steps_install_postgres_redis_nginx_and_venv():
    installs = [argv for argv in debian_steps() if argv[:2] == ["apt-get", "install"]]
    assert len(installs) == 1
    assert {"postgresql", "redis-server", "nginx", "python3-venv"} <= set(installs[0][2:])
    assert ["apt-get", "update"] in debian_steps()
    # the nginx unit of Debian reads /run/nginx.pid: the conf is installed with that pid file
    (sed,) = [argv for argv in debian_steps() if argv[0] == "sed"]
    old, new = sed[1].split("|")[1:3]
    conf = (DEPLOY / "nginx.conf").read_text().replace(old, new)
    assert re.search(r"^pid /run/nginx\.pid;$", conf, re.M)


def test_the_debian_role_and_database_commands_make_a_database_stich_can_migrate(pg):
    """The doc's createuser and createdb lines, run as user postgres against this test's own Postgres
    (its port and superuser added), then the schema migrated as the role they made, through the
    Unix-socket URL of stich.env (its socket directory and port those of this test's Postgres)."""
    import asyncio

    from tests.web.unit.harness import PG_BIN

    made = []
    for argv in debian_steps():
        if argv[:4] == ["runuser", "-u", "postgres", "--"] and argv[4] in ("createuser", "createdb"):
            tool, args = argv[4], argv[5:]
            pg._as_pg(PG_BIN / tool, "-h", "127.0.0.1", "-p", pg.port, "-U", "postgres", *args)
            made.append(tool)
    assert made == ["createuser", "createdb"]

    env = dict(line.split("=", 1) for line in (DEPLOY / "systemd" / "stich.env").read_text().splitlines()
               if line.strip() and not line.startswith("#"))
    url = env["STICH_DB"]
    assert url == "postgresql://stich@/stich?host=/var/run/postgresql"
    url = url.replace("/var/run/postgresql", str(pg.dir)) + f"&port={pg.port}"
    from stich.web import store

    async def migrate():
        engine = store.make_engine(store.database_url(url))
        try:
            await store.migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(migrate())
    owner = pg._as_pg(PG_BIN / "psql", "-h", "127.0.0.1", "-p", pg.port, "-U", "postgres", "-d", "stich", "-tAc",
                      "select tableowner from pg_tables where tablename = 'actions'").stdout.strip()
    assert owner == "stich"


def unit_file(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=False, delimiters=("=",))
    unit.optionxform = str
    unit.read_string((DEPLOY / "systemd" / name).read_text())
    return unit


def test_the_units_start_after_postgres_and_redis():
    server = unit_file("stich@.service")["Unit"]
    for key in ("After", "Wants"):
        assert {"postgresql.service", "redis-server.service"} <= set(server[key].split()), key
    worker = unit_file("stich-bot-worker.service")["Unit"]
    for key in ("After", "Wants"):
        assert "redis-server.service" in worker[key].split(), key
