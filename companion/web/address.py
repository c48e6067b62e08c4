"""The server's own address: where join links and QR codes send the phones, and which host names it
answers to.

A request's Host header is chosen by whatever web page sent it. A page on evil.example whose name is
made to resolve to this laptop (DNS rebinding) would otherwise reach the companion as "evil.example",
create games and read answers, and a join link built from that header would send phones elsewhere.
So links are built from the address `serve` listens on, and a request naming a host this server is not
known by is refused before it touches anything.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import TypedDict
from urllib.parse import urlsplit

from flask import abort, current_app, request
from flask_babel import gettext as _

from ..words import Text

ANY = ("0.0.0.0", "", "::")  # listening on every interface: phones need the address of the LAN one
LOCAL = ("localhost",)  # what create_app answers to when `serve` did not say (tests, other WSGI servers)


class ServedAt(TypedDict):
    """The app's config for where it is served (config keys, hence the capitals)."""

    PUBLIC_URL: str  # the base of every link the phones get
    HOST_NAMES: list[str]  # the names it answers to besides its IP addresses
    PUBLIC_URL_GIVEN: bool  # a reverse proxy's address was given
    LOOPBACK_ONLY: bool  # only this machine can reach it


def lan_address() -> str:
    """The address phones on the same network can reach (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def served_at(host: str, port: int, names: list[str] | tuple = (), public_url: str | None = None) -> ServedAt:
    """The app's config for a server listening on (host, port): PUBLIC_URL, the base of every link
    the phones get, and HOST_NAMES, the names it answers to besides its IP addresses. `public_url` and
    `names` are for a reverse proxy (e.g. https://messina.example.org)."""
    given = bool(public_url)
    if public_url:
        base = public_url.strip().rstrip("/")
        if "://" not in base:
            base = "http://" + base
    else:
        shown = lan_address() if host in ANY else host
        if ":" in shown:  # an IPv6 address goes in brackets in a URL
            shown = f"[{shown}]"
        base = f"http://{shown}" + ("" if port == 80 else f":{port}")
    machine = socket.gethostname()
    known = {*LOCAL, machine, f"{machine}.local", urlsplit(base).hostname or "", *names}
    return {"PUBLIC_URL": base, "HOST_NAMES": sorted({_plain(n) for n in known if _plain(n)}),
            "PUBLIC_URL_GIVEN": given, "LOOPBACK_ONLY": not given and loopback(host)}


def loopback(name: str | None) -> bool:
    """True for an address only this machine can reach: localhost, 127.x.y.z, ::1."""
    name = _plain(name or "")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _plain(name: str) -> str:
    """A host name as compared: lower case, no trailing dot, no brackets around an IPv6 address."""
    return name.strip().lower().rstrip(".").strip("[]")


def host_name(header: str) -> str:
    """The name in a Host header, without its port ("[::1]:8000" -> "::1")."""
    header = header.strip()
    if header.startswith("["):
        return _plain(header.partition("]")[0])
    return _plain(header.rpartition(":")[0] if header.count(":") == 1 else header)


def answers_to(header: str | None, names) -> bool:
    """True for a name this server is known by, and for any IP address: a rebinding page always
    comes under a name, and a page opened at an IP address is this server's own. The port is not
    checked, so a reverse proxy on 443 passes as well as the server's own port. A request without a
    Host header (HTTP/1.0) comes from no web page, so it passes too."""
    if not header:
        return True
    name = host_name(header)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name in {_plain(n) for n in names}


def check_host() -> None:
    """Before every request, a screen's held question included: refuse a host name the server does not answer
    to (421), changing nothing."""
    names = current_app.config.get("HOST_NAMES") or LOCAL
    if not answers_to(request.environ.get("HTTP_HOST"), names):
        public = current_app.config.get("PUBLIC_URL")
        abort(421, Text("This companion does not answer to that name. Open {public}/ instead.", public=public) if public
              else Text("This companion does not answer to that name. Open the address it showed when it started."))


def public_base() -> str:
    """Where phones reach this server: PUBLIC_URL from `serve`, or else the request's own address,
    which check_host has already limited to localhost and IP addresses. A loopback address is no use
    to a phone: when `serve` listens on every interface but found no LAN address at start (the laptop
    joined the Wi-Fi later), the links take the LAN address it has now. An address the host typed with
    --public-url always wins; without `serve` nobody said where the server listens, so nothing changes."""
    config = current_app.config
    base = config.get("PUBLIC_URL") or request.host_url.rstrip("/")
    parts = urlsplit(base)
    if config.get("LOOPBACK_ONLY", True) or config.get("PUBLIC_URL_GIVEN") or not loopback(parts.hostname):
        return base
    lan = lan_address()
    if loopback(lan):
        return base
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{lan}{port}"


def unreachable() -> str | None:
    """Why no phone can open the join links (they are at a loopback address), or None when they can."""
    if not loopback(urlsplit(public_base()).hostname):
        return None
    listening = current_app.config.get("LOOPBACK_ONLY")
    if listening is None:  # not started by `serve`: where it listens is not known here
        return _("These codes point at this computer's own address, which phones cannot reach. Open this "
                 "page at the network address the companion printed when it started.")
    if listening:
        return _("This companion listens only on this computer, so phones cannot reach it. Start it again "
                 "with --host 0.0.0.0 (the default) to let phones on the same network join.")
    return _("This computer has no network address that phones can reach, so these codes will not work on a "
             "phone. Join this computer to the table's Wi-Fi (or a phone's hotspot) and reload this page.")
