"""A connection that sends no request, or a request's headers too slowly, is closed
(`--request-timeout`). uvicorn closes an idle keep-alive connection after a response
(`timeout_keep_alive`), but a connection that never sends a whole request head (a
socket opened and left, a slowloris) it holds for ever: each costs a file descriptor
and a slot of the table's server. The body of a request is the app's to time
(server/api.py `read_body`); a websocket, once open, is the pings' (`ws_ping_*`).

The same protocol uvicorn picks ('auto': httptools if installed, else h11), with a
deadline armed when a connection opens or a new request's first bytes arrive, and
disarmed once its head is read (a new request cycle) or it became a websocket.
"""

import asyncio

from uvicorn.protocols.http.auto import AutoHTTPProtocol


def http_protocol(request_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class, closing a connection whose request head has not
    arrived within `request_timeout` seconds of its first byte (or of its opening)."""

    class Deadline(AutoHTTPProtocol):  # type: ignore[misc, valid-type]  # a class chosen at import
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if self._deadline is None and (cycle is None or cycle.response_complete):
                self._arm()  # the first bytes of a new request
            super().data_received(data)
            if self.cycle is not cycle or self.transport.get_protocol() is not self:
                self._disarm()  # its head is read, or it is a websocket now

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._deadline = asyncio.get_running_loop().call_later(request_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and self.transport.get_protocol() is self:
                self.transport.close()

    return Deadline
