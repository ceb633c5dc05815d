"""Shim of the nki NKI typing module for tracing (see sim/frontend/kltrace)."""
from kltrace.api import install

install(__name__, "typing", "nki")
