import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator

import pytest
import redis.asyncio as aioredis

from fray_table.server.embedded import EmbeddedRedis
from fray_table.server.store import ENCOUNTERS, RedisStore, cmds_key, events_key, meta_key, snapshot_key

# --- Redis ----------------------------------------------------------------
# The Redis may be shared with other tests and processes: never FLUSHALL,
# give every test its own encounter ids (`new_encounter`), delete only those.


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as redis:
        yield redis.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A local three-master Redis Cluster (tests/topology/redis_cluster.py), for the tests marked
    `cluster`; skipped without redis-server 7 and redis-cli on PATH, unless CI=true."""
    from redis_cluster import LocalCluster, binaries

    if binaries() is None:
        message = "a local Redis Cluster needs redis-server 7 and redis-cli on PATH (Debian: apt-get install redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"))
    yield cluster
    cluster.stop()


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_url)
    await store.start()
    yield store
    await store.close()


@pytest.fixture
async def new_encounter(redis_url: str) -> AsyncIterator[Callable[[], str]]:
    made: list[str] = []

    def new() -> str:
        made.append(f"test-{uuid.uuid4().hex}")
        return made[-1]

    yield new
    if made:
        client = aioredis.Redis.from_url(redis_url)
        try:
            await client.delete(*(key(e) for e in made for key in (events_key, cmds_key, meta_key, snapshot_key)))
            await client.srem(ENCOUNTERS, *made)
        finally:
            await client.aclose()


# --- Fray servers -----------------------------------------------------------
# Real `fray serve` processes on loopback ports, sharing the test Redis.

from support import FAST, FrayServer  # noqa: E402  (beside its fixtures)


@pytest.fixture(scope="module")
def fray_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FrayServer]:
    server = FrayServer(redis_url, tmp_path_factory.mktemp("fray"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def fast_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FrayServer]:
    """A `fray serve` with its rate and socket limits lifted (support.FAST)."""
    server = FrayServer(redis_url, tmp_path_factory.mktemp("fast"), env=FAST)
    yield server
    server.stop()


@pytest.fixture
def fray_replicas(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FrayServer, FrayServer]]:
    logs = tmp_path_factory.mktemp("replicas")
    first = FrayServer(redis_url, logs)
    second = FrayServer(redis_url, logs)
    yield first, second
    first.stop()
    second.stop()


@pytest.fixture
async def join():
    """join(server, link, after=None) -> Table; every table is closed at teardown, pass or fail."""
    from support import Table

    opened: list[Table] = []

    async def open_table(server: FrayServer, link: str, after: str | None = None) -> Table:
        opened.append(await Table.join(server, link, after))
        return opened[-1]

    yield open_table
    for table in opened:
        await table.close()
