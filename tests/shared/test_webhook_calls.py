"""Webhook calls (``shared.infra.outbound`` over ``shared.infra.webhook_target``): refused
spellings connect nowhere, the call goes to the address it checked, one deadline bounds the
whole exchange and the answer's size is capped.

All traffic stays on loopback. Public addresses appear only as text: a resolver given to a
check may answer 8.8.8.8, but only where nothing connects (the check never connects).
"""

from __future__ import annotations

import contextlib
import ipaddress
import select
import shutil
import socket
import ssl
import subprocess
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import certifi
import pytest

from shared.infra import outbound
from shared.infra.webhook_target import (
    RefusedTarget,
    check_webhook_url,
    parse,
    parse_networks,
    refused,
)

LOOPBACK = parse_networks("127.0.0.0/8")
CAP = 64 * 1024


class Listener:
    """Sockets listening on one port of 127.0.0.1 and ::1 that never accept: a connection
    made to them waits in the backlog, where ``connected`` sees it."""

    def __init__(self) -> None:
        self.v4 = socket.create_server(("127.0.0.1", 0))
        self.port = self.v4.getsockname()[1]
        self.sockets = [self.v4]
        with contextlib.suppress(OSError):  # no IPv6 loopback here: the v4 one only
            self.sockets.append(socket.create_server(("::1", self.port),
                                                     family=socket.AF_INET6))

    def connected(self) -> bool:
        readable, _, _ = select.select(self.sockets, [], [], 0.2)
        return bool(readable)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    listening = Listener()
    yield listening
    listening.close()


SPELLINGS = [
    "http://127.0.0.1:{port}\\@8.8.8.8/", "http://8.8.8.8:80\\@127.0.0.1:{port}/",
    "http://8.8.8.8@127.0.0.1:{port}/", "http://user:pw@127.0.0.1:{port}/",
    "http://2130706433:{port}/", "http://0x7f.1:{port}/", "http://0x7f000001:{port}/",
    "http://0177.0.0.1:{port}/", "http://127.1:{port}/", "http://0:{port}/",
    "http://[::1]:{port}/", "http://[::ffff:127.0.0.1]:{port}/",
    "http://[::ffff:7f00:1]:{port}/", "http://[::]:{port}/", "http://[0:0:0:0:0:0:0:1]:{port}/",
    "http://localhost:{port}/", "http://localhost.:{port}/", "http://LocalHost:{port}/",
    "http://127.0.0.1:{port}/", "http://127.0.0.1:{port}#@8.8.8.8/", "http://0.0.0.0:{port}/",
    "HTTP://127.0.0.1:{port}/", "http://\u2460\u2461\u2466.0.0.1:{port}/",
    "http://127.0.0.1%2e:{port}/", "http://127.0.0.1:0{port}/", "http://127.0.0.1:{port} /",
    "http://127.0.0.1\t:{port}/", "http:/127.0.0.1:{port}/", "ftp://127.0.0.1:{port}/",
    "http://127.0.0.1:{port}:{port}/", "http://[127.0.0.1]:{port}/",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_refused_spelling_is_refused_and_connects_nowhere(spelling: str,
                                                            listener: Listener) -> None:
    url = spelling.format(port=listener.port)
    with pytest.raises(RefusedTarget):
        check_webhook_url(url, [])
    with pytest.raises(outbound.CallFailed, match=r"^refused"):
        outbound.post(url, b"{}", {}, seconds=2, allowed=[], max_bytes=CAP)
    assert not listener.connected()


def test_the_listener_does_see_a_call_it_allows(listener: Listener) -> None:
    """What the test above rests on: a call made is seen (here it waits for an answer that
    never comes, so it also shows the deadline)."""
    started = time.monotonic()
    with pytest.raises(outbound.CallFailed, match="Timeout"):
        outbound.post(f"http://127.0.0.1:{listener.port}/", b"{}", {}, seconds=0.5,
                      allowed=LOOPBACK, max_bytes=CAP)
    assert time.monotonic() - started < 1.0
    assert listener.connected()


@pytest.mark.parametrize("address", [
    "::ffff:10.0.0.1", "64:ff9b::a00:1", "64:ff9b::7f00:1", "2002:7f00:1::",
    "2001:0:4136:e378:8000:63bf:80ff:fffe", "100.64.0.1", "169.254.169.254", "224.0.0.1",
    "240.0.0.1", "fe80::1", "fc00::1", "ff02::1", "::", "192.0.2.1"])
def test_non_public_addresses_are_refused_even_inside_ipv6_ones(address: str) -> None:
    assert refused(ipaddress.ip_address(address), [])


def test_public_addresses_and_the_allow_list_pass() -> None:
    for address in ("8.8.8.8", "2001:4860:4860::8888", "::ffff:8.8.8.8"):
        assert not refused(ipaddress.ip_address(address), [])
    assert not refused(ipaddress.ip_address("127.0.0.7"), LOOPBACK)
    assert not refused(ipaddress.ip_address("::ffff:127.0.0.7"), LOOPBACK)
    assert refused(ipaddress.ip_address("10.0.0.1"), LOOPBACK)


def test_a_url_is_normalised_once() -> None:
    target = parse("HTTPS://Bots.Example.COM.:443/evo?x=1#frag")
    assert (target.url, target.host, target.netloc) == (
        "https://bots.example.com/evo?x=1", "bots.example.com", "bots.example.com")
    assert parse("http://b\u00fccher.example:8080").url == "http://xn--bcher-kva.example:8080/"
    for bad in ("http://a_b.example/", "http://exa mple.com/", "http://-a.example/",
                "http://example.com:99999/", "http://[::1%25eth0]/"):
        with pytest.raises(RefusedTarget):
            parse(bad)


def answers(*lists: Sequence[str]) -> Callable[..., list[tuple[Any, ...]]]:
    """A resolver giving each list of addresses in turn (the last one from then on)."""
    calls = iter(lists)
    last: list[Sequence[str]] = [lists[-1]]

    def resolve(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        last[0] = next(calls, last[0])
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in last[0]]
    return resolve


def test_rebinding_to_loopback_after_the_check_is_refused_at_the_call(
        listener: Listener) -> None:
    url = f"http://rebind.example:{listener.port}/hook"
    resolver = answers(["8.8.8.8"], ["127.0.0.1"])
    check_webhook_url(url, [], resolver)  # registration: public, fine (nothing connects)
    with pytest.raises(outbound.CallFailed, match=r"127\.0\.0\.1"):
        outbound.post(url, b"{}", {}, seconds=2, allowed=[], max_bytes=CAP, resolver=resolver)
    assert not listener.connected()


class Recorder(ThreadingHTTPServer):
    """A webhook on a loopback address recording each call's Host header and body."""

    def __init__(self, host: str, port: int = 0) -> None:
        self.calls: list[dict[str, Any]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                recorder.calls.append({"host": self.headers["Host"], "body": body,
                                       "to": self.connection.getsockname()[0],
                                       "signature": self.headers.get("Evo-Signature")})
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__((host, port), Handler)
        # A short poll: shutdown() waits up to one interval (0.5 s by default).
        threading.Thread(target=self.serve_forever, args=(0.02,), daemon=True).start()


def test_the_call_goes_to_the_checked_address_with_the_url_host(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The name answers 127.0.0.2 (allowed) first, 127.0.0.3 (not allowed) after: the call
    connects to the first, the one it checked, and sends the URL's host. Any second lookup,
    the call's own or the socket library's, would get 127.0.0.3, where nothing listens."""
    server = Recorder("127.0.0.2")
    port = server.server_address[1]
    elsewhere = Listener.__new__(Listener)
    elsewhere.sockets = [socket.create_server(("127.0.0.3", port))]
    real = socket.getaddrinfo

    def rebound(host: Any, *args: Any, **kwargs: Any) -> Any:
        return real("127.0.0.3" if host == "rebind.example" else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    try:
        answer = outbound.post(f"http://rebind.example:{port}/hook", b'{"a":1}', {},
                               seconds=3, allowed=parse_networks("127.0.0.2/32"),
                               max_bytes=CAP, resolver=answers(["127.0.0.2"], ["127.0.0.3"]))
        assert (answer.status, answer.body) == (200, b"{}")
        assert server.calls == [{"host": f"rebind.example:{port}", "body": b'{"a":1}',
                                 "to": "127.0.0.2", "signature": None}]
        assert not elsewhere.connected()
        # A name with one refused address among its answers is not called at all.
        with pytest.raises(outbound.CallFailed, match=r"127\.0\.0\.3"):
            outbound.post(f"http://rebind.example:{port}/hook", b"{}", {}, seconds=3,
                          allowed=parse_networks("127.0.0.2/32"), max_bytes=CAP,
                          resolver=answers(["127.0.0.2", "127.0.0.3"]))
        assert len(server.calls) == 1 and not elsewhere.connected()
    finally:
        server.shutdown()
        server.server_close()
        elsewhere.close()


@contextlib.contextmanager
def raw_server(serve: Callable[[socket.socket], None]) -> Iterator[int]:
    """A loopback server running ``serve`` on each connection; yields its port."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                conn, _ = server.accept()
                with conn:
                    conn.recv(65536)  # the request (small: one read takes it)
                    with contextlib.suppress(OSError):
                        serve(conn)

    threading.Thread(target=loop, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        server.close()


def drip(prefix: bytes) -> Callable[[socket.socket], None]:
    def serve(conn: socket.socket) -> None:
        conn.sendall(prefix)
        for _ in range(150):  # 30 s of a byte every 0.2 s: a read never waits 1 s
            conn.sendall(b"x")
            time.sleep(0.2)
    return serve


@pytest.mark.parametrize("prefix", [b"", b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"],
                         ids=["headers", "body"])
def test_a_dripping_webhook_holds_the_call_no_longer_than_the_deadline(prefix: bytes) -> None:
    with raw_server(drip(prefix)) as port:
        started = time.monotonic()
        with pytest.raises(outbound.CallFailed, match="Timeout"):
            outbound.post(f"http://127.0.0.1:{port}/", b"{}", {}, seconds=1.0,
                          allowed=LOOPBACK, max_bytes=CAP)
        assert time.monotonic() - started < 1.0 + 0.5  # slack: a busy machine (per read: 30 s)


FLOOD_CHUNK = b"x" * (1024 * 1024)  # made once, before any memory is counted


def flood(conn: socket.socket) -> None:
    size = 50 * len(FLOOD_CHUNK)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % size)
    for _ in range(50):
        conn.sendall(FLOOD_CHUNK)


def test_a_huge_answer_is_read_to_the_cap_only() -> None:
    with raw_server(flood) as port:
        tracemalloc.start()
        started = time.monotonic()
        try:
            with pytest.raises(outbound.CallFailed, match="longer than"):
                outbound.post(f"http://127.0.0.1:{port}/", b"{}", {}, seconds=5,
                              allowed=LOOPBACK, max_bytes=CAP)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert time.monotonic() - started < 1.0
        assert peak < 8 * CAP  # the cap, a read buffer or two (50 MB were on offer)


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_a_slow_name_server_holds_the_call_no_longer_than_the_deadline(
        listener: Listener) -> None:
    def slow(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        time.sleep(3)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    started = time.monotonic()
    with pytest.raises(outbound.CallFailed, match="resolve"):
        outbound.post(f"http://slow.example:{listener.port}/", b"{}", {}, seconds=0.5,
                      allowed=LOOPBACK, max_bytes=CAP, resolver=slow)
    assert time.monotonic() - started < 0.5 + 0.5  # slack for a busy machine
    time.sleep(3)  # the lookup left behind ends, and its answer is not called
    assert not listener.connected()


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A test CA and a certificate it signed for ``bot.example`` (openssl's command line)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl here")
    tmp = tmp_path_factory.mktemp("tls")
    files = {name: str(tmp / name) for name in ("ca.key", "ca.pem", "leaf.key", "leaf.csr",
                                                "leaf.pem", "san.ext")}
    Path(files["san.ext"]).write_text("subjectAltName=DNS:bot.example\n")
    for command in (
            f"req -x509 -newkey rsa:2048 -nodes -keyout {files['ca.key']} -out "
            f"{files['ca.pem']} -days 1 -subj /CN=Evo-Test-CA",
            f"req -newkey rsa:2048 -nodes -keyout {files['leaf.key']} -out {files['leaf.csr']}"
            " -subj /CN=bot.example",
            f"x509 -req -in {files['leaf.csr']} -CA {files['ca.pem']} -CAkey {files['ca.key']}"
            f" -CAcreateserial -out {files['leaf.pem']} -days 1 -extfile {files['san.ext']}"):
        subprocess.run(["openssl", *command.split()], check=True, capture_output=True)
    return files


def test_https_is_pinned_too_and_checks_the_certificate_against_the_url_host(
        certificates: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    server = Recorder("127.0.0.2")
    port = server.server_address[1]
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates["leaf.pem"], certificates["leaf.key"])
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    server.socket = context.wrap_socket(server.socket, server_side=True)
    monkeypatch.setattr(certifi, "where", lambda: certificates["ca.pem"])
    allowed = parse_networks("127.0.0.2/32")
    try:
        answer = outbound.post(f"https://bot.example:{port}/hook", b"{}", {}, seconds=5,
                               allowed=allowed, max_bytes=CAP,
                               resolver=answers(["127.0.0.2"], ["127.0.0.3"]))
        assert answer.status == 200 and names == ["bot.example"]
        assert server.calls[0]["host"] == f"bot.example:{port}"
        # The same address under a name its certificate does not carry: refused.
        with pytest.raises(outbound.CallFailed, match="CERTIFICATE_VERIFY_FAILED"):
            outbound.post(f"https://other.example:{port}/hook", b"{}", {}, seconds=5,
                          allowed=allowed, max_bytes=CAP, resolver=answers(["127.0.0.2"]))
        assert len(server.calls) == 1
    finally:
        server.shutdown()
        server.server_close()


def test_the_call_tries_the_checked_addresses_in_turn() -> None:
    """A name with an address nobody answers on (127.0.0.4 here; an IPv6 one the worker
    cannot reach, in life) and one that answers: the call reaches the second."""
    server = Recorder("127.0.0.2")
    port = server.server_address[1]
    try:
        answer = outbound.post(f"http://two.example:{port}/", b"{}", {}, seconds=3,
                               allowed=parse_networks("127.0.0.0/29"), max_bytes=CAP,
                               resolver=answers(["127.0.0.4", "127.0.0.2"]))
        assert answer.status == 200 and server.calls[0]["to"] == "127.0.0.2"
    finally:
        server.shutdown()
        server.server_close()
