"""Webhook targets: the one parser of a webhook URL, for the check and for the call.

A URL is parsed and normalised once, strictly, and every spelling two URL parsers could read
differently is refused rather than interpreted: backslashes, white space and control
characters, a user name or password (``user@``), a scheme other than http(s), a port that is
not 1-65535 in decimal, a percent-encoded host, an IPv4 address not written as four plain
decimal numbers (``2130706433``, ``0x7f.1``, ``127.1``, ``0177.0.0.1``), a host name that is
not valid IDNA. ``resolve`` then checks every address the host has now (``refused``): the call
(:mod:`shared.infra.outbound`) connects to one of those, so what was checked is what is called.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import idna

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: ``socket.getaddrinfo``'s shape: tests pass a resolver of their own (rebinding).
Resolver = Callable[..., Sequence[tuple[Any, ...]]]

_URL = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<authority>[^/?#]*)"
                  r"(?P<rest>[/?#].*)?", re.S)
_IPV6_AUTHORITY = re.compile(r"\[(?P<host>[0-9A-Fa-f:.]+)\](?::(?P<port>[0-9]{1,5}))?")
_NAME_AUTHORITY = re.compile(r"(?P<host>[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?")
_PATH = re.compile(r"[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%]*")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_NUMERIC_LABEL = re.compile(r"[0-9]+|0x[0-9a-f]*")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
DEFAULT_PORTS = {"http": 80, "https": 443}


class RefusedTarget(ValueError):
    """The URL, or an address its host resolves to, is not one this server calls."""


@dataclass(frozen=True)
class Target:
    """A webhook URL, normalised: what the check read is what the call uses."""

    scheme: str  # "http" or "https"
    host: str  # ASCII (IDNA), lower case, no trailing dot; an IPv6 literal without brackets
    port: int
    path: str  # path and query as sent (never empty; the fragment dropped)
    literal: Address | None  # the host, when it is an IP address

    @property
    def netloc(self) -> str:
        """The Host header: the host (bracketed if IPv6) and the port unless the default."""
        host = f"[{self.host}]" if isinstance(self.literal, ipaddress.IPv6Address) else self.host
        return host if DEFAULT_PORTS[self.scheme] == self.port else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.netloc}{self.path}"


def parse_networks(text: str) -> list[Network]:
    """The allow-list of webhook networks from a comma-separated list of CIDRs."""
    return [ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",") if part.strip()]


def parse(url: str) -> Target:
    """The URL as a :class:`Target`, or :class:`RefusedTarget` (the message says why)."""
    if any(c.isspace() or not c.isprintable() or c == "\\" for c in url):
        raise RefusedTarget("the webhook URL has a backslash, a space or a control character")
    match = _URL.fullmatch(url)
    scheme = match["scheme"].lower() if match else ""
    if match is None or scheme not in DEFAULT_PORTS:
        raise RefusedTarget("the webhook must be an http:// or https:// URL with a host")
    authority = match["authority"]
    if "@" in authority:
        raise RefusedTarget("the webhook URL may not carry a user name or password ('@')")
    path = (match["rest"] or "/").split("#", 1)[0]
    path = "/" + path if not path.startswith("/") else path
    if not _PATH.fullmatch(path):
        raise RefusedTarget("the webhook URL's path has characters to percent-encode")
    literal: Address | None
    if authority.startswith("["):
        parts = _IPV6_AUTHORITY.fullmatch(authority)
        literal = _ipv6(parts["host"]) if parts else None
        host = str(literal)
    else:
        parts = _NAME_AUTHORITY.fullmatch(authority)
        host, literal = _host(parts["host"]) if parts else ("", None)
    if parts is None:
        raise RefusedTarget("the webhook URL's host and port cannot be read unambiguously")
    port = int(parts["port"]) if parts["port"] is not None else DEFAULT_PORTS[scheme]
    if not 0 < port < 65536 or (parts["port"] or "").startswith("0"):
        raise RefusedTarget("the webhook URL's port must be a decimal number 1-65535")
    return Target(scheme, host, port, path, literal)


def _ipv6(text: str) -> ipaddress.IPv6Address:
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        raise RefusedTarget("the webhook URL's IPv6 address is not valid") from None


def _host(raw: str) -> tuple[str, Address | None]:
    """A host name or an IPv4 address as its one canonical spelling (or refused)."""
    if "%" in raw:
        raise RefusedTarget("the webhook URL's host may not be percent-encoded")
    name = raw[:-1] if raw.endswith(".") else raw
    try:
        ascii_name = idna.encode(name.lower(), uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        ascii_name = ""
    labels = ascii_name.split(".")
    if _NUMERIC_LABEL.fullmatch(labels[-1]):
        # A numeric last label makes the host an IPv4 address to a browser, to curl and to
        # inet_aton, each with its own reading of '0x7f.1' or '2130706433': only the one
        # spelling they all agree on passes.
        try:
            address = ipaddress.IPv4Address(name)
        except ValueError:
            raise RefusedTarget("an IP address in a webhook URL must be four decimal "
                                "numbers (like 93.184.215.14)") from None
        return str(address), address
    if len(ascii_name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise RefusedTarget("the webhook URL's host is not a valid host name")
    return ascii_name, None


def refused(address: Address, allowed: Sequence[Network]) -> bool:
    """True for an address the server does not call: any non-public one (private, loopback,
    link-local, reserved, multicast, unspecified, shared), directly or embedded in an IPv6
    one (IPv4-mapped, NAT64, 6to4, Teredo), unless it lies in an ``allowed`` network."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # the IPv4 address it is, and nothing else
    candidates: list[Address] = [address]
    if isinstance(address, ipaddress.IPv6Address):
        embedded = [address.sixtofour, *(address.teredo or ())]
        if address in _NAT64:
            embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        candidates += [a for a in embedded if a is not None]
    return not all(_public(a) or any(a in network for network in allowed) for a in candidates)


def _public(address: Address) -> bool:
    return address.is_global and not (address.is_multicast or address.is_private
                                       or address.is_loopback or address.is_link_local
                                       or address.is_reserved or address.is_unspecified)


def resolve(target: Target, allowed: Sequence[Network],
            resolver: Resolver = socket.getaddrinfo) -> list[Address]:
    """The addresses of the target's host now, each checked; any refused one refuses all
    (a name that resolves to a public and a private address is not called at all)."""
    if target.literal is not None:
        addresses: list[Address] = [target.literal]
    else:
        try:
            infos = resolver(target.host, target.port, type=socket.SOCK_STREAM,
                             proto=socket.IPPROTO_TCP)
            found = [ipaddress.ip_address(info[4][0]) for info in infos]
        except (OSError, UnicodeError, ValueError):
            found = []
        if not found:
            raise RefusedTarget(f"the webhook host {target.host!r} does not resolve")
        addresses = list(dict.fromkeys(found))
    for address in addresses:
        if refused(address, allowed):
            raise RefusedTarget(f"the webhook host resolves to {address}, a non-public address "
                                "this server does not call")
    # An IPv4-mapped address is called as the IPv4 address it is (the one that was checked).
    return [a.ipv4_mapped if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped else a
            for a in addresses]


def check_webhook_url(url: str, allowed: Sequence[Network],
                      resolver: Resolver = socket.getaddrinfo) -> Target:
    """The URL parsed and its host's addresses checked now (:class:`RefusedTarget`, a
    ``ValueError``, if not): the quick answer at registration. The call checks again."""
    target = parse(url)
    resolve(target, allowed, resolver)
    return target
