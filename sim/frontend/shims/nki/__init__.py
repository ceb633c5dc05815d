"""Shim of the nki NKI package for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "top", "nki")

from . import language, isa, typing, compiler, collectives, lnc  # noqa: E402,F401
