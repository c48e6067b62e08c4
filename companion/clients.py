"""Who counts as one client, for every count kept per device: connections open at the server's door, new
games started and join codes tried. One device, one count, however it is addressed."""

from __future__ import annotations

import ipaddress


def client_key(address: str) -> str:
    """An IPv4 address, or an IPv6 address's /64 network (what one home or one phone is given, so new
    addresses inside it are no new client); an IPv4 address written as IPv6 is that IPv4 address. Anything
    unreadable counts as itself."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
