import asyncio
import pathlib

import pytest
import redis.asyncio as aioredis

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


async def test_embedded_files_are_the_users_alone(tmp_path: pathlib.Path):
    """Issue 28: the embedded Redis's files (its append-only file holds the token secret)
    were readable by every user of the machine: the folder is 0700 and every file in it
    has no group or other permission, those Redis writes later (an AOF rewrite) too."""
    import os
    import stat

    data = tmp_path / "data"
    old = os.umask(0o022)  # as a login shell sets it
    try:
        with EmbeddedRedis(data) as redis:
            store = RedisStore(redis.url)
            await store.start()
            await store.append("e1", "c1", b"the secret is in here")
            await store.close()
            client = aioredis.Redis.from_url(redis.url)
            try:
                await client.bgrewriteaof()
                for _ in range(100):  # bounded: until the rewrite is done
                    if (await client.info("persistence"))["aof_rewrite_in_progress"] == 0:
                        break
                    await asyncio.sleep(0.05)
            finally:
                await client.aclose()
            paths = [data, *data.rglob("*")]
            assert any(p.name.endswith(".aof") for p in paths) and (data / "redis.log").exists()
            shared = {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.lstat().st_mode)) for p in paths if not p.is_socket() and p.lstat().st_mode & 0o077}
            assert shared == {}
    finally:
        os.umask(old)


def test_embedded_long_folder_socket_is_in_a_folder_of_the_users_alone(tmp_path: pathlib.Path, monkeypatch):
    """Issue 28: a long data path put the socket at a predictable /tmp/fray-<hash>.sock, where
    anyone could have put one first. Now it is in /tmp/fray-<uid>, 0700 and the user's, or refused."""
    import os
    import stat
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir(mode=0o777)
    folder = tmp_path / ("x" * 60) / ("y" * 60)
    path = EmbeddedRedis(folder).socket_path
    assert path.parent == tmp_path / "tmp" / f"fray-{os.getuid()}"
    st = path.parent.lstat()
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == os.getuid()
    path.parent.chmod(0o777)  # as another user could have left it
    with pytest.raises(RuntimeError, match="not a folder of this user's alone"):
        EmbeddedRedis(folder)


@pytest.mark.parametrize("long", [False, True])
def test_embedded_redis_does_not_adopt_whatever_listens_on_its_socket(tmp_path: pathlib.Path, long: bool):
    """Issue 28: a Redis already listening at the socket's path was adopted (and handed the
    token secret). Only the Redis started on the folder (the pid in its pidfile) is."""
    import socket
    import threading

    folder = tmp_path / ("x" * 60) / ("y" * 60) if long else tmp_path / "data"
    folder.mkdir(parents=True)
    impostor = EmbeddedRedis(folder)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(impostor.socket_path))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def answer() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    conn.recv(64)
                    conn.sendall(b"+PONG\r\n")
                except OSError:
                    pass

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        embedded = EmbeddedRedis(folder)
        try:
            with pytest.raises(RuntimeError, match="that is not the Redis of"):
                embedded.start()
        finally:
            embedded.stop()
    finally:
        stop.set()
        thread.join(5)
        server.close()
        impostor.socket_path.unlink(missing_ok=True)
    with EmbeddedRedis(folder) as redis:  # the socket free again: Fray starts its own
        assert redis.owned and ping(redis.socket_path) == b"+PONG\r\n"
