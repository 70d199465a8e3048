"""What browsers and phones need of every response: CORS, ETags with 304s, gzip.

CORS: the allowed origins come from ``CORS_ORIGINS`` (default ``*``: any page may call the
API; there are no cookies, a seat is a bearer token, so no credentials are ever allowed).
A JSON ``GET`` carries a strong ``ETag`` of its body and answers a matching
``If-None-Match`` with 304, so a polling client re-downloads nothing that did not change;
its ``Cache-Control`` is ``private, no-cache`` unless the route set a ``public`` one (the
component catalogue, the same for everyone).
Text bodies are gzipped for clients that accept it (the event stream in :mod:`api.sse`).
"""

from __future__ import annotations

import functools
import hashlib
import zlib
from typing import Any

from flask import Flask, Response, request

ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, If-None-Match"
EXPOSED_HEADERS = "ETag, Location, Retry-After"
PREFLIGHT_MAX_AGE = 600
CORS_HEADERS = ("Access-Control-Allow-Origin", "Access-Control-Expose-Headers")
GZIP_MIN_BYTES = 512
GZIP_TYPES = ("application/json", "application/problem+json", "text/html", "text/css",
              "text/javascript", "application/javascript", "application/yaml", "text/plain")
GZIP_SUFFIX = "-gzip"


def register(app: Flask) -> None:
    # One hook, not three: each after_request hook costs Flask a call per request, and each
    # ``response.vary.add`` parses and rewrites the header; here Vary is written once. The
    # allowed origins are read from the settings once, not on every answer.
    origins = _origins(app.extensions["evo.settings"].cors_origins)
    app.after_request(functools.partial(_finish, origins=origins))


def _origins(setting: str) -> tuple[str, ...]:
    """The allowed origins ``CORS_ORIGINS`` lists (``("*",)``: any)."""
    allowed = tuple(o.strip() for o in setting.split(",") if o.strip())
    return ("*",) if "*" in allowed else allowed


def _finish(response: Response, origins: tuple[str, ...]) -> Response:
    """CORS, then the ETag (and its 304), then gzip: in that order, as one pass.

    The request's headers are read from its WSGI environ and the answer's from its list:
    werkzeug's header look-ups build an exception for every name that is absent, and most
    are (this runs on every answer; docs/benchmarks.md)."""
    wsgi = request.environ
    vary: list[str] = []
    _cors(response, wsgi, origins, vary)
    mimetype = response.mimetype
    response = _conditional(response, wsgi, mimetype, vary)
    _compress(response, mimetype, vary)
    if vary:
        response.vary.update(vary)
    if response.status_code == 204:
        del response.headers["Content-Type"]  # no content, so no type (RFC 9110 8.3)
    return response


def _header(response: Response, name: str) -> str | None:
    """The answer's ``name`` header (None: absent), without werkzeug's KeyError for a miss."""
    wanted = name.lower()
    for key, value in response.headers.items():
        if key.lower() == wanted:
            return value
    return None


def allowed_origin(origin: str | None, origins: tuple[str, ...]) -> str | None:
    """The ``Access-Control-Allow-Origin`` value for a request from ``origin``."""
    if origins == ("*",):
        return "*"
    return origin if origin is not None and origin in origins else None


def accepts_gzip() -> bool:
    return "gzip" in request.environ.get("HTTP_ACCEPT_ENCODING", "").lower()


def _cors(response: Response, wsgi: dict[str, Any], origins: tuple[str, ...],
          vary: list[str]) -> None:
    origin = allowed_origin(wsgi.get("HTTP_ORIGIN"), origins)
    if origin != "*":
        vary.append("Origin")
    if origin is None:
        return
    response.headers["Access-Control-Allow-Origin"] = origin
    response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
    if request.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in wsgi:
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, PATCH, DELETE, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)


def _conditional(response: Response, wsgi: dict[str, Any], mimetype: str | None,
                 vary: list[str]) -> Response:
    if (request.method != "GET" or response.status_code != 200 or response.is_streamed
            or response.direct_passthrough or mimetype != "application/json"):
        return response
    tag = hashlib.sha256(response.get_data()).hexdigest()[:32]
    if "public" not in (_header(response, "Cache-Control") or ""):
        # A seat's view differs from a spectator's: caches must key on the token and
        # revalidate. A route whose answer is the same for everyone says ``public`` itself.
        vary.append("Authorization")
        response.headers["Cache-Control"] = "private, no-cache"
    response.set_etag(tag)
    if "HTTP_IF_NONE_MATCH" not in wsgi:
        return response
    wanted = request.if_none_match
    if wanted.contains(tag) or wanted.contains(tag + GZIP_SUFFIX) or wanted.star_tag:
        # The 304 names the representation the client holds (RFC 9110 15.4.5): the gzipped
        # one's tag if that is what it revalidates.
        same = (f'"{tag}{GZIP_SUFFIX}"' if wanted.contains(tag + GZIP_SUFFIX)
                and accepts_gzip() else response.headers["ETag"])
        not_modified = Response(status=304, headers={"ETag": same,
                                                     "Cache-Control": "private, no-cache"})
        # A browser checks CORS on the 304 too: without these a cross-origin page's
        # revalidation fails (and it could not read the ETag it revalidates with).
        for name in CORS_HEADERS:
            if name in response.headers:
                not_modified.headers[name] = response.headers[name]
        not_modified.vary.update([*response.vary, *vary])
        vary.clear()  # written above, with the response's own
        # A route's public Cache-Control holds for its 304 too (a revalidated catalogue).
        not_modified.headers["Cache-Control"] = response.headers["Cache-Control"]
        return not_modified
    return response


def gzip_body(data: bytes) -> bytes:
    """``data`` gzipped at level 6, with a window just large enough for it: the same bytes
    out as with zlib's 32 KiB default, but setting up (and zeroing) that window and its hash
    tables cost several times the compression of a body of a few hundred bytes."""
    bits = min(15, max(10, len(data).bit_length()))  # zlib takes 9 as 10 for deflate
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + bits, 4)  # +16: gzip header, trailer
    return packer.compress(data) + packer.flush()


def _compress(response: Response, mimetype: str | None, vary: list[str]) -> None:
    if (response.is_streamed or response.direct_passthrough or response.status_code < 200
            or response.status_code in (204, 304) or mimetype not in GZIP_TYPES
            or _header(response, "Content-Encoding") is not None):
        return
    vary.append("Accept-Encoding")
    if not accepts_gzip() or (response.content_length or 0) < GZIP_MIN_BYTES:
        return
    response.set_data(gzip_body(response.get_data()))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag:  # the gzipped bytes are another representation: another strong tag
        response.set_etag(etag + GZIP_SUFFIX, weak=bool(weak))
