"""The wheel holds everything `fray` needs: built, installed into a fresh venv
outside the tree, and run from outside it. (`.ci/run` does the same with the
dependencies installed from constraints.txt; here they are borrowed from the
test venv, so the test costs one wheel build, not a download.)"""

import os
import site
import subprocess
import sys
import time

import httpx
import pytest
from support import ROOT, free_port

pytestmark = pytest.mark.package


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next((work / "dist").glob("fray_table-*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies from this venv: a plain path line, so the editable
    # install's finder in there is not run and the wheel's fray_table wins.
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], check=True, capture_output=True, text=True
    ).stdout.strip()
    (venv / "lib" / target.split("/lib/", 1)[1] / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return {"venv": venv, "cwd": work, "env": {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PYTHONPATH")}}


def test_wheel_plays_a_scenario_from_outside_the_tree(installed):
    scenario = installed["cwd"] / "first-blood.toml"
    scenario.write_bytes((ROOT / "docs" / "scenarios" / "first-blood.toml").read_bytes())
    fray = str(installed["venv"] / "bin" / "fray")
    where = subprocess.run(
        [str(installed["venv"] / "bin" / "python"), "-c", "import fray_table.rules.charts as c; print(c.__file__)"],
        cwd=installed["cwd"],
        env=installed["env"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(installed["venv"])), where  # the wheel's copy, not the source tree's
    version = subprocess.run([fray, "--version"], cwd=installed["cwd"], env=installed["env"], capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == "fray 0.1.0"
    out = subprocess.run([fray, "run", scenario.name], cwd=installed["cwd"], env=installed["env"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Alda attacks Goblin 1: d20 15 + 1 combat bonus + AC 6 = 22 ≥ 19: hit." in out.stdout


def test_wheel_serves_the_pages_from_outside_the_tree(installed):
    port = free_port()
    log = (installed["cwd"] / "serve.log").open("w")
    serve = subprocess.Popen(
        [str(installed["venv"] / "bin" / "fray"), "serve", "--port", str(port), "--no-demo", "--data", str(installed["cwd"] / "data")],
        cwd=installed["cwd"],
        env=installed["env"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError((installed["cwd"] / "serve.log").read_text())
        assert "A shared fight" in httpx.get(base + "/", timeout=5).text
        for path in ("/static/app.js", "/static/home.js", "/static/index.html"):
            assert httpx.get(base + path, timeout=5).status_code == 200, path
    finally:
        serve.terminate()
        serve.wait(15)
        log.close()
