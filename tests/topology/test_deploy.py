"""What cannot run here (no container engine) is still checked: the image, the
compose file and the Kubernetes manifests parse and name what they must."""

import re

import yaml
from support import ROOT

DEPLOY = ROOT / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def manifests() -> dict[str, dict]:
    """Every Kubernetes object under deploy/k8s, by kind/name."""
    found = {}
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            found[f"{doc['kind']}/{doc['metadata']['name']}"] = doc
    return found


def fray_services(services: dict) -> dict[str, dict]:
    return {name: s for name, s in services.items() if s.get("build", {}).get("dockerfile") == "deploy/Dockerfile"}


def test_dockerfile_is_multi_stage_pinned_non_root_with_a_healthcheck():
    text = (DEPLOY / "Dockerfile").read_text()
    bases = re.findall(r"^FROM\s+(\S+)", text, re.M)
    assert len(bases) >= 2, bases  # a build stage and a clean runtime stage
    assert all(re.fullmatch(r"python:3\.11\.\d+-slim-bookworm", b) for b in bases), bases
    assert "-c constraints.txt" in text and "COPY constraints.txt" in text
    assert "COPY --from=build" in text
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")
    health = re.search(r"^HEALTHCHECK .*(?:\n .*)*", text, re.M)
    assert health and "/livez" in health[0]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests"} <= set(ignored)


def test_compose_runs_two_replicas_behind_haproxy_on_a_persistent_redis():
    services = compose()["services"]
    replicas = fray_services(services)
    assert len(replicas) >= 2, list(services)
    redis = services["redis"]
    assert re.fullmatch(r"redis:7[\d.]*-?\w*", redis["image"])
    command = " ".join(redis["command"])
    assert "--appendonly yes" in command and "--requirepass ${REDIS_PASSWORD:?" in command
    lb = services["lb"]
    assert lb["image"].startswith("haproxy:")
    assert any(v.startswith("./haproxy.cfg:") for v in lb["volumes"])
    for name, service in services.items():
        assert service.get("restart") in ("always", "unless-stopped"), name
        assert service.get("healthcheck", {}).get("test"), name
    config = (DEPLOY / "haproxy.cfg").read_text()
    for i, name in enumerate(replicas, 1):
        assert lb["environment"][f"FRAY_REPLICA_{i}"] == f"{name}:8000"
        assert f'"${{FRAY_REPLICA_{i}}}" check' in config
        assert lb["depends_on"][name]["condition"] == "service_healthy"
    assert "timeout tunnel" in config  # websockets outlive the http timeouts


def test_compose_takes_the_secrets_from_the_environment():
    for name, service in fray_services(compose()["services"]).items():
        env = service["environment"]
        for variable in ("FRAY_SECRET", "FRAY_ADMIN_KEY"):
            assert env[variable].startswith(f"${{{variable}:?"), (name, variable)  # compose refuses to start without it
        assert "${REDIS_PASSWORD:?" in env["REDIS_URL"]
        assert "/readyz" in " ".join(service["healthcheck"]["test"])
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_kubernetes_deployment_has_probes_and_runs_as_non_root():
    found = manifests()
    deployment = found["Deployment/fray"]
    spec = deployment["spec"]
    assert spec["replicas"] >= 2
    pod = spec["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    (container,) = pod["containers"]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    env = {e["name"]: e for e in container["env"]}
    for variable in ("REDIS_URL", "FRAY_SECRET", "FRAY_ADMIN_KEY"):
        assert env[variable]["valueFrom"]["secretKeyRef"]["name"] == "fray", variable
    service = found["Service/fray"]
    assert service["spec"]["selector"] == spec["selector"]["matchLabels"] == spec["template"]["metadata"]["labels"]
    ingress = found["Ingress/fray"]
    assert int(ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == "fray"


def test_kubernetes_redis_persists_with_a_password():
    redis = manifests()["StatefulSet/redis"]
    (container,) = redis["spec"]["template"]["spec"]["containers"]
    args = " ".join(container["args"])
    assert "--appendonly yes" in args and "--requirepass" in args
    assert container["image"].startswith("redis:7")
    assert redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    assert manifests()["Service/redis"]["spec"]["selector"] == redis["spec"]["selector"]["matchLabels"]
