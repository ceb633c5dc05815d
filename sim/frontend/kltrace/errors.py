"""The single error type of the front end and the codes it may carry."""

CODES = ("invalid_argument", "not_found", "parse", "unsupported", "kernel_error", "timeout", "io", "internal")


class TraceError(Exception):
    """A failure reported to the user as one JSON error object.

    `file` and `line` point into the kernel's sources; when they are left empty the tracer fills them
    with the innermost kernel frame that was executing when the error was raised.
    """

    def __init__(self, code, message, hint="", file=None, line=None):
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.file = file
        self.line = line

    def where(self):
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}" if self.line else str(self.file)


def kernel_error(message, hint=""):
    return TraceError("kernel_error", message, hint)


def unsupported(message, hint=""):
    return TraceError("unsupported", message, hint)
