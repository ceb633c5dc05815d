"""Shim of the nki lnc module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "lnc", "nki")
