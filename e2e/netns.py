"""Two devices behind two NATs, with the internet between them, in network namespaces of our own.

    a 10.200.1.2 -- 10.200.1.1 nata 10.200.10.2 -- 10.200.10.1 inet 10.200.20.1 -- ...
    ... -- 10.200.20.2 natb 10.200.2.1 -- 10.200.2.2 b      (nata and natb: MASQUERADE)

`inet` runs a STUN server (Debian's coturn, STUN only) on 10.200.10.1:3478. Each device's
namespace serves the site on its own loopback (so each page is a secure context, as on
127.0.0.1 anywhere) and runs its Chromium there: Playwright launches it through a small wrapper
that enters the namespace (`ip netns exec`), and talks to it over the pipe Chromium inherits, so
nothing of the test is reachable from outside the namespaces and no address outside them is used.
`blocked=True` drops everything `inet` would forward between the two NATs (STUN, to `inet` itself,
still answers): the devices learn their public addresses and still find no route.

Everything is created inside the namespaces (a veth pair is made in one namespace with its peer
put straight into the other), so the machine's own network is never touched; `close` kills the
processes started here and deletes the namespaces, which takes their interfaces and rules along.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STUN_PORT = 3478
STUN_ADDRESS = "10.200.10.1"
SITE_PORT = 8765
ROOT = Path(__file__).resolve().parent.parent
for _sbin in ("/usr/sbin", "/sbin"):  # ip, iptables, sysctl and ss live there (root's PATH)
    if _sbin not in os.environ.get("PATH", "").split(":"):
        os.environ["PATH"] = os.environ.get("PATH", "") + ":" + _sbin
IPTABLES = shutil.which("iptables") or "/usr/sbin/iptables"
TURNSERVER = shutil.which("turnserver") or "/usr/bin/turnserver"


class NoNamespaces(Exception):
    """The kernel (or the lack of root) refuses network namespaces here."""


def _run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=20)


def missing_tools() -> list[str]:
    """The Debian packages this needs that are not installed (scripts/nat-tools.sh installs
    them, as `make test` does)."""
    tools = {"coturn": TURNSERVER, "iptables": IPTABLES}
    return [package for package, path in tools.items() if not os.access(path, os.X_OK)]


def namespaces_refused() -> str | None:
    """Why network namespaces cannot be made here, or None when they can."""
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is missing"
    name = "pp-probe-" + secrets.token_hex(3)
    try:
        _run("ip", "netns", "add", name)
    except (subprocess.CalledProcessError, OSError) as error:
        stderr = getattr(error, "stderr", b"") or b""
        return f"the kernel refused a network namespace: {stderr.decode(errors='replace').strip()}"
    _run("ip", "netns", "del", name)
    return None


class Topology:
    def __init__(self, blocked: bool = False) -> None:
        tag = secrets.token_hex(3)
        self.names = {part: f"pp{tag}-{part}" for part in ("a", "nata", "inet", "natb", "b")}
        self.blocked = blocked
        self.processes: list[subprocess.Popen[bytes]] = []
        self.made: list[str] = []
        self.folder = Path(tempfile.mkdtemp(prefix="parlour-netns-"))

    def ns(self, part: str) -> str:
        return self.names[part]

    def __enter__(self) -> Topology:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- building -------------------------------------------------------------------------------

    def _ip(self, part: str, *args: str) -> None:
        _run("ip", "-n", self.ns(part), *args)

    def _in(self, part: str, *args: str) -> None:
        _run("ip", "netns", "exec", self.ns(part), *args)

    def _link(self, left: str, left_if: str, right: str, right_if: str) -> None:
        self._ip(left, "link", "add", left_if, "type", "veth", "peer", "name", right_if, "netns",
                 self.ns(right))  # fmt: skip
        self._ip(left, "link", "set", left_if, "up")
        self._ip(right, "link", "set", right_if, "up")

    def _build(self) -> None:
        for part, name in self.names.items():
            _run("ip", "netns", "add", name)
            self.made.append(name)
            # No IPv6 in the namespaces: a new interface's link-local address finishes its
            # duplicate check a second or two after the link comes up, and Chromium, seeing an
            # address change, aborts a page's loads with ERR_NETWORK_CHANGED.
            for scope in ("all", "default"):
                self._in(part, "sysctl", "-qw", f"net.ipv6.conf.{scope}.disable_ipv6=1")
            self._ip(part, "link", "set", "lo", "up")
        self._link("a", "lan", "nata", "lan")
        self._link("nata", "wan", "inet", "wana")
        self._link("inet", "wanb", "natb", "wan")
        self._link("natb", "lan", "b", "lan")
        addresses = {
            ("a", "lan"): "10.200.1.2/24",
            ("nata", "lan"): "10.200.1.1/24",
            ("nata", "wan"): "10.200.10.2/24",
            ("inet", "wana"): "10.200.10.1/24",
            ("inet", "wanb"): "10.200.20.1/24",
            ("natb", "wan"): "10.200.20.2/24",
            ("natb", "lan"): "10.200.2.1/24",
            ("b", "lan"): "10.200.2.2/24",
        }
        for (part, dev), address in addresses.items():
            self._ip(part, "addr", "add", address, "dev", dev)
        self._ip("a", "route", "add", "default", "via", "10.200.1.1")
        self._ip("b", "route", "add", "default", "via", "10.200.2.1")
        self._ip("nata", "route", "add", "default", "via", "10.200.10.1")
        self._ip("natb", "route", "add", "default", "via", "10.200.20.1")
        for part in ("nata", "inet", "natb"):
            self._in(part, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for part in ("nata", "natb"):
            self._in(part, IPTABLES, "-t", "nat", "-A", "POSTROUTING", "-o", "wan",
                     "-j", "MASQUERADE")  # fmt: skip
            # as a home router does, unsolicited packets from outside are dropped unanswered:
            # else the first one (a peer's check arriving before ours went out) would leave a
            # conntrack entry that makes MASQUERADE give our own check another port
            self._in(part, IPTABLES, "-A", "INPUT", "-i", "wan", "-j", "DROP")
        if self.blocked:  # the two public sides never reach each other; STUN still answers
            self._in("inet", IPTABLES, "-A", "FORWARD", "-j", "DROP")
        self._start_stun()
        for part in ("a", "b"):
            self._start_site(part)

    def _spawn(self, part: str, *args: str, log: str) -> subprocess.Popen[bytes]:
        out = open(self.folder / log, "wb")  # noqa: SIM115 (closed with the process's end)
        process = subprocess.Popen(
            ["ip", "netns", "exec", self.ns(part), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        out.close()
        self.processes.append(process)
        return process

    def _start_stun(self) -> None:
        self._spawn(
            "inet",
            TURNSERVER, "--stun-only", "-L", STUN_ADDRESS, "-p", str(STUN_PORT), "--no-cli",
            "--no-tls", "--no-dtls", "-n", "--no-software-attribute", "--log-file", "stdout",
            "--simple-log", "--pidfile", str(self.folder / "turnserver.pid"),
            log="turnserver.log",
        )  # fmt: skip
        self._wait_port("inet", STUN_ADDRESS, STUN_PORT, udp=True)

    def _start_site(self, part: str) -> None:
        self._spawn(
            part,
            sys.executable, "-m", "e2e.netns", "serve", str(SITE_PORT),
            log=f"site-{part}.log",
        )  # fmt: skip
        self._wait_port(part, "127.0.0.1", SITE_PORT)

    def _wait_port(self, part: str, host: str, port: int, udp: bool = False) -> None:
        """Wait (at most 15 s) until something listens there, seen from inside the namespace."""
        flag = "-uln" if udp else "-tln"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            listing = subprocess.run(
                ["ip", "netns", "exec", self.ns(part), "ss", "-H", flag],
                capture_output=True, text=True, timeout=10,
            ).stdout  # fmt: skip
            if f"{host}:{port}" in listing:
                return
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"a helper ended early: see {self.folder}")
            time.sleep(0.1)
        raise RuntimeError(f"nothing listened on {host}:{port} in {part} within 15 s")

    # -- using ------------------------------------------------------------------------------------

    @property
    def site_url(self) -> str:
        return f"http://127.0.0.1:{SITE_PORT}/"

    @property
    def stun(self) -> str:
        return f"{STUN_ADDRESS}:{STUN_PORT}"

    def chromium(self, part: str, chromium: str) -> str:
        """A program that runs `chromium` inside the device's namespace, for Playwright to launch
        (its pipe, fds 3 and 4, goes through `ip netns exec`'s exec unchanged)."""
        wrapper = self.folder / f"chromium-{part}"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {self.ns(part)} {chromium} "$@"\n')
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
        return str(wrapper)

    # -- taking it all down -------------------------------------------------------------------

    def close(self) -> None:
        """Kill what we started (and whatever still runs in our namespaces), then delete them."""
        for process in self.processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        for name in self.made:
            pids = subprocess.run(
                ["ip", "netns", "pids", name], capture_output=True, text=True, timeout=10
            ).stdout.split()
            for pid in pids:  # only processes inside a namespace made by this test
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
        deadline = time.monotonic() + 10
        for name in self.made:
            while time.monotonic() < deadline:
                done = subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)
                if done.returncode == 0:
                    break
                time.sleep(0.2)
        self.made.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


def _serve(port: int) -> None:
    """The site on this namespace's loopback (run as `python -m e2e.netns serve PORT`)."""
    from scripts.serve import make_server

    socket.setdefaulttimeout(None)
    make_server(port, quiet=True).serve_forever()


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        os.chdir(ROOT)
        _serve(int(sys.argv[2]))
