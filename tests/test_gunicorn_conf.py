"""The API's gunicorn settings (``gunicorn.conf.py``) as gunicorn itself loads them."""

from __future__ import annotations

import base64
import datetime
import logging
from pathlib import Path

import pytest
from gunicorn import glogging
from gunicorn.app.base import Application
from gunicorn.config import Config

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


class _FileOnly(Application):
    """gunicorn's own loading of a config file (its validators included), without argv."""

    def load_config(self) -> None:
        self.cfg = Config()
        self.load_config_from_file(str(CONF))

    def init(self, parser: object, opts: object, args: object) -> None:
        return None

    def load(self) -> None:
        return None


def _loaded() -> Config:
    return _FileOnly().cfg


def test_no_admin_socket_unless_a_path_is_given(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    assert _loaded().control_socket_disable is True
    path = str(tmp_path / "api.ctl")
    monkeypatch.setenv("GUNICORN_CONTROL_SOCKET", path)
    cfg = _loaded()
    assert cfg.control_socket_disable is False and cfg.control_socket == path


class _Response:
    def __init__(self, status: str | int, sent: int | None) -> None:
        self.status, self.sent, self.headers = status, sent, [("Content-Type", "text/plain")]


def _access_line(logger_class: type, cfg: Config, response: _Response,
                 environ: dict[str, str]) -> str:
    """The access line ``logger_class`` writes for one request, as its handler receives it."""
    logger = logger_class(cfg)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger.access_log.handlers = [handler]
    logger.access_log.propagate = False
    logger.now = lambda: "[05/Dec/2026:07:00:00 +0000]"  # one clock for both loggers
    logger.access(response, environ, environ, datetime.timedelta(microseconds=1234))
    assert len(records) == 1
    return records[0].getMessage()


@pytest.mark.parametrize(("status", "sent", "extra"), [
    ("200 OK", 512, {"HTTP_USER_AGENT": "python-requests/2.34.2"}),
    (404, None, {}),
    ("503 Service Unavailable", 0, {
        # Quotes in what the client sends are escaped: no forged fields in the line.
        "HTTP_USER_AGENT": 'evil" 200 1 "-', "HTTP_REFERER": 'http://a/"b"',
        "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b'bo"b:secret').decode()}),
])
def test_the_lean_access_line_is_gunicorns_own(status: str | int, sent: int | None,
                                              extra: dict[str, str]) -> None:
    """The access logger of ``gunicorn.conf.py`` writes, for the default format, exactly the
    line gunicorn's own logger writes (it skips building the atoms the format never uses)."""
    cfg = _loaded()
    assert cfg.logger_class is not glogging.Logger
    environ = {"REMOTE_ADDR": "127.0.0.1", "REQUEST_METHOD": "GET",
               "RAW_URI": "/v1/matches/abc/moves?lang=cs&x=%20", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": "/v1/matches/abc/moves", "QUERY_STRING": "lang=cs&x=%20", **extra}
    response = _Response(status, sent)
    assert (_access_line(cfg.logger_class, cfg, response, environ)
            == _access_line(glogging.Logger, cfg, response, environ))


def test_another_access_format_is_gunicorns_to_write() -> None:
    cfg = _loaded()
    cfg.set("access_log_format", "%(m)s %(U)s %({user-agent}i)s %(p)s")
    environ = {"REMOTE_ADDR": "127.0.0.1", "REQUEST_METHOD": "POST", "RAW_URI": "/x",
               "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/x", "HTTP_USER_AGENT": "ua"}
    line = _access_line(cfg.logger_class, cfg, _Response("201 Created", 3), environ)
    assert line == _access_line(glogging.Logger, cfg, _Response("201 Created", 3), environ)
    assert line.startswith("POST /x ")
