"""The API's gunicorn settings (``gunicorn.conf.py``) as gunicorn itself loads them."""

from __future__ import annotations

from pathlib import Path

import pytest
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
