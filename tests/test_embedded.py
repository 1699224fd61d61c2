import pathlib

import pytest

from fray_table.server.embedded import EmbeddedRedis, default_data_dir, ping
from fray_table.server.store import RedisStore

pytestmark = pytest.mark.redis


async def test_embedded_data_survives_restart(tmp_path: pathlib.Path):
    with EmbeddedRedis(tmp_path) as redis:
        store = RedisStore(redis.url)
        await store.start()
        for i in range(5):
            await store.append("e1", f"c{i}", b"event %d" % i)
        await store.set_meta("e1", {"name": "Bridge"})
        written = await store.read("e1")
        await store.close()

    with EmbeddedRedis(tmp_path) as redis:
        store = RedisStore(redis.url)
        await store.start()
        try:
            assert await store.read("e1") == written
            assert await store.get_meta("e1") == {"name": "Bridge"}
            assert await store.append("e1", "c0", b"again") == (written[0][0], False)
        finally:
            await store.close()


def test_embedded_second_instance_reuses_running_server(tmp_path: pathlib.Path):
    with EmbeddedRedis(tmp_path) as first:
        assert first.owned
        second = EmbeddedRedis(tmp_path)
        assert second.start() == first.url
        assert not second.owned
        second.stop()  # not its server: leaves it running
        assert ping(first.socket_path) == b"+PONG\r\n"
    assert ping(first.socket_path) is None


def test_embedded_long_folder_gets_short_socket(tmp_path: pathlib.Path):
    folder = tmp_path / ("x" * 60) / ("y" * 60)
    with EmbeddedRedis(folder) as redis:
        assert len(str(redis.socket_path)) <= 100
        assert ping(redis.socket_path) == b"+PONG\r\n"
        with EmbeddedRedis(folder) as again:
            assert again.url == redis.url and not again.owned


def test_embedded_folder_that_is_a_file_is_a_clear_error(tmp_path: pathlib.Path):
    not_a_folder = tmp_path / "data"
    not_a_folder.write_text("")
    with pytest.raises(RuntimeError, match="Cannot use .*data as Fray's data folder: it is a file"):
        EmbeddedRedis(not_a_folder).start()
    with pytest.raises(RuntimeError, match="Cannot use"):
        EmbeddedRedis(not_a_folder / "inside").start()


def test_embedded_corrupt_aof_fails_with_redis_log(tmp_path: pathlib.Path):
    (tmp_path / "appendonly.aof").write_bytes(b"this is not an append-only file\n")
    with pytest.raises(RuntimeError, match="did not start(.|\n)*append only file"):
        EmbeddedRedis(tmp_path).start()


def test_embedded_unknown_fsync_policy_is_misuse(tmp_path: pathlib.Path):
    with pytest.raises(RuntimeError, match="appendfsync"):
        EmbeddedRedis(tmp_path, appendfsync="sometimes")


def test_default_data_dir_is_named_for_fray():
    assert default_data_dir().name == "fray"
