"""The designer's studio: a local web page to edit a variant, see its printed set, play it against bots and run it.

``serve`` binds the address first (so a port in use is said before anything starts),
then serves :func:`workbench.studio.app.create_app` with uvicorn until Ctrl-C. The page
and its assets are files of this package (``static/``): no build step, nothing fetched.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.errors import UsageError, display_path

if TYPE_CHECKING:  # the command line imports this module for its defaults: what serving needs comes with serve()
    import socket

#: The port ``workbench studio`` listens on unless told.
PORT = 8765
LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.1, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` means every address of this machine (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket at ``host:port`` (port 0: any free one), or a one-line refusal."""
    if not 0 <= port <= 65535:
        raise UsageError("port", "a port is a number from 1 to 65535 (0: any free one)", str(port))
    if not host.strip():
        raise UsageError("host", "name an address to listen on (127.0.0.1, or 0.0.0.0 for every address)")
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as exc:
        busy = exc.errno == 98
        why = exc.strerror or str(exc)
        raise UsageError(
            None,
            lambda name: (
                f"cannot listen at {host}:{port}: "
                + (f"it is in use (another studio?): try {name('port')} {port + 1}" if busy else why)
            ),
        ) from None
    return sock


def can_open_a_browser() -> bool:
    """Whether a graphical browser can be opened here (a desktop session, or macOS/Windows): never a text browser."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(
    variant: Path, *, host: str = LOOPBACK, port: int = PORT, browser: bool = True, say: Callable[[str], None] = print
) -> None:
    """Serve the studio for the variant file ``variant`` until interrupted (Ctrl-C); ``say`` hears the address."""
    import uvicorn

    from workbench.studio.app import Studio, create_app

    if not variant.is_file():
        what = "no such variant file" if not variant.exists() else "not a variant file (a folder? a pipe?)"
        raise UsageError(None, f"{display_path(variant)}: {what}")
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    studio = Studio(variant)
    names = {host, LOOPBACK, "localhost"} if is_loopback(host) else {host}
    shown = f"[{host}]" if ":" in host else host
    # On every address of the machine its names are not known here: any Host is answered (the token still guards).
    hosts = None if is_wildcard(host) else {f"{f'[{name}]' if ':' in name else name}:{bound}" for name in names}
    url = f"http://{shown}:{bound}/?token={studio.token}"
    say(f"studio for {display_path(variant)} at {url}")
    say("(Ctrl-C stops it; the address carries this run's token: share it only with who may edit the file)")
    if browser and can_open_a_browser():
        import webbrowser

        webbrowser.open(url)
    config = uvicorn.Config(create_app(studio, hosts), log_level="warning", access_log=False, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
