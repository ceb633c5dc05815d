"""Limits the tracing process: memory and CPU rlimits, a wall-clock alarm, no network, a private cwd.

The real isolation is the operating-system sandbox KernelLens runs the front end in (bubblewrap, seccomp:
docs/sandbox.md); the C++ side also kills the whole sandbox after a hard deadline. These limits exist so
that the common failures (an endless loop, a runaway allocation) come back as a message naming the kernel
line; block_network only turns an attempt into a clear message when the front end runs without the sandbox.
"""
import os
import resource
import signal
import shutil
import socket
import tempfile

from .errors import TraceError


class _NoNetwork:
    def __init__(self, *_, **__):
        raise TraceError("unsupported", "network access is disabled while tracing a kernel",
                         "kernels must not open sockets")


def block_network():
    for name in ("socket", "SocketType"):
        setattr(socket, name, _NoNetwork)
    for name in ("create_connection", "create_server", "socketpair", "fromfd", "getaddrinfo"):
        if hasattr(socket, name):
            setattr(socket, name, _NoNetwork)
    try:
        import _socket
        _socket.socket = _NoNetwork
    except ImportError:
        pass


def set_limits(timeout_s, memory_mb, max_processes=0):
    if memory_mb:
        limit = int(memory_mb) * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):
            pass
    if max_processes:
        # Set here rather than before the sandbox starts: inside bubblewrap's user namespace the count is the
        # sandbox's own processes; outside it would be every process of the user.
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (int(max_processes), int(max_processes)))
        except (ValueError, OSError):
            pass
    try:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized output file: EFBIG, reported as io
    except (OSError, ValueError):
        pass
    if timeout_s:
        cpu = int(timeout_s) + 2
        try:
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard if hard != resource.RLIM_INFINITY else cpu + 5))
        except (ValueError, OSError):
            pass


def arm_alarm(timeout_s, on_timeout):
    """Call on_timeout(frame) from SIGALRM after timeout_s seconds (and on SIGXCPU)."""
    if not timeout_s:
        return

    def handler(signum, frame):
        on_timeout(frame)

    signal.signal(signal.SIGALRM, handler)
    signal.signal(signal.SIGXCPU, handler)
    signal.setitimer(signal.ITIMER_REAL, float(timeout_s))


def disarm_alarm():
    signal.setitimer(signal.ITIMER_REAL, 0)


class PrivateDir:
    """A temporary working directory for the kernel, removed afterwards."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="kltrace-")
        self.old = os.getcwd()

    def enter(self):
        os.chdir(self.path)

    def leave(self):
        try:
            os.chdir(self.old)
        except OSError:
            os.chdir("/")
        shutil.rmtree(self.path, ignore_errors=True)
