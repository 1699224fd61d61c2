"""Which address to put in a link: the public URL when one is given, else the
machine's LAN address when listening on every interface, else the host listened
on. Found without sending a packet: the interfaces' own addresses, read with
SIOCGIFADDR; failing that (not Linux), the source address the kernel would pick
for a UDP socket `connect`ed to a private address, which sends nothing."""

import contextlib
import fcntl
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
ANY = ("0.0.0.0", "::", "")


def interface_addresses() -> list[ipaddress.IPv4Address]:
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):  # an interface without an IPv4 address
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
                found.append(ipaddress.IPv4Address(packed[20:24]))
    return found


def routed_address() -> ipaddress.IPv4Address | None:
    # connect() on a UDP socket only chooses a route and a source address; no packet leaves.
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("10.254.254.254", 9))
        return ipaddress.IPv4Address(sock.getsockname()[0])
    return None


def lan_address() -> str:
    """The address other devices on the same network reach this machine at
    (a private one preferred), or 127.0.0.1 if there is none."""
    candidates = [a for a in interface_addresses() if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    if not candidates and (routed := routed_address()) is not None and not routed.is_loopback:
        candidates = [routed]
    private = [a for a in candidates if a.is_private]
    return str((private or candidates or [ipaddress.IPv4Address("127.0.0.1")])[0])


def start_url(host: str, port: int, public_url: str = "") -> str:
    """The base of the links printed at start."""
    if public_url:
        return public_url
    if host in ANY:
        host = lan_address()
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"
