"""Messages treadle shows (warnings, the init banner, verbose output) and wp.set_logger.

Warp's logging model, which treadle follows (Warp programs also reach this module as
``warp._src.logger``): one active logger object with ``debug``,
``info``, ``warning`` and ``error`` methods (the Logger protocol); the default writes debug and
info to stdout, errors to stderr, and sends warnings through ``warnings.warn`` so that Python's
warning filters apply, printed as ``Warp <Category>: <message>`` on stderr. Messages below
``treadle.config.log_level`` are dropped; ``_warnings_seen`` remembers the (category, message)
pairs already shown by ``log_warning(..., once=True)`` and by every DeprecationWarning.
"""

import linecache
import sys
import warnings
from typing import Protocol, runtime_checkable

# Imported here, not at use time: a relative import inside a function runs while a warning is
# being shown, and can itself warn (ImportWarning) when the module is reached under an alias.
from . import config

LOG_DEBUG = 10
"""Log level of verbose compilation and debugging output."""
LOG_INFO = 20
"""Log level of informational messages (the init banner)."""
LOG_WARNING = 30
"""Log level of warnings and deprecation notices."""
LOG_ERROR = 40
"""Log level of error messages (always shown)."""


@runtime_checkable
class Logger(Protocol):
    """What set_logger accepts: an object with these four methods. ``warning`` receives a
    ``stacklevel`` already adjusted for a direct ``warnings.warn(message, category,
    stacklevel=stacklevel)``."""

    def debug(self, message: str) -> None: ...

    def info(self, message: str) -> None: ...

    def warning(self, message: str, category=None, stacklevel: int = 1) -> None: ...

    def error(self, message: str) -> None: ...


def _check_logger(logger):
    methods = ("debug", "info", "warning", "error")
    if not all(callable(getattr(logger, m, None)) for m in methods):
        raise TypeError(
            "logger must implement the Logger protocol (debug(message), info(message), "
            f"warning(message, category, stacklevel), error(message)), got {type(logger)!r}"
        )


def _format_warning(message, category, filename, lineno, line=None):
    text = f"Warp {category.__name__}: {message}"
    if config.verbose_warnings:
        text += f" ({filename}:{lineno})"
        source = line if line is not None else linecache.getline(filename, lineno)
        if source:
            text += f"\n  {source.strip()}"
    return text + "\n"


def _show_warning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(_format_warning(message, category, filename, lineno, line))


class LoggerBasic:
    """The default logger: debug and info to stdout, errors to stderr, warnings through
    ``warnings.warn`` (shown on stderr in Warp's format)."""

    def debug(self, message: str) -> None:
        sys.stdout.write(message + "\n")

    def info(self, message: str) -> None:
        sys.stdout.write(message + "\n")

    def warning(self, message: str, category=None, stacklevel: int = 1) -> None:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            warnings.warn(message, category, stacklevel=stacklevel)

    def error(self, message: str) -> None:
        sys.stderr.write("Warp Error: " + message + "\n")


_active_logger = LoggerBasic()
_warnings_seen: set = set()


def set_logger(logger) -> None:
    """Makes `logger` (any object of the Logger protocol) receive every message; ``None``
    restores the default logger. Raises TypeError for an object without the four methods."""
    global _active_logger
    if logger is None:
        _active_logger = LoggerBasic()
        return
    _check_logger(logger)
    _active_logger = logger


def get_logger():
    """The logger that receives messages now."""
    return _active_logger


def _level():
    return config.log_level, config.verbose


def log_debug(message: str) -> None:
    """Sends a debug message when ``config.log_level <= LOG_DEBUG`` or ``config.verbose``."""
    level, verbose = _level()
    if verbose or level <= LOG_DEBUG:
        _active_logger.debug(message)


def log_info(message: str) -> None:
    """Sends an informational message when ``config.log_level <= LOG_INFO``."""
    if _level()[0] <= LOG_INFO:
        _active_logger.info(message)


def log_banner(message: str) -> None:
    """An informational message about treadle itself (the start-up banner), sent as log_info
    sends it, except that the default logger writes it to stderr: a program's stdout stays its
    own (JSON lines, CSV)."""
    if _level()[0] > LOG_INFO:
        return
    if type(_active_logger) is LoggerBasic:
        sys.stderr.write(message + "\n")
    else:
        _active_logger.info(message)


def log_warning(message: str, category=None, stacklevel=1, once=False) -> None:
    """Sends a warning when ``config.log_level <= LOG_WARNING``. With ``once`` (always for a
    DeprecationWarning) a (category, message) pair is shown only the first time; `stacklevel`
    counts from the caller of log_warning, as for ``warnings.warn``."""
    if _level()[0] > LOG_WARNING:
        return
    dedup = once or category is DeprecationWarning
    if dedup and (category, message) in _warnings_seen:
        return
    # +2 skips log_warning and the logger's warning(), so the location is the caller's.
    _active_logger.warning(message, category=category, stacklevel=stacklevel + 2)
    if dedup:
        _warnings_seen.add((category, message))


config._warn[0] = log_warning  # deprecated settings in config warn through the logger


def log_error(message: str) -> None:
    """Sends an error message, whatever the log level."""
    _active_logger.error(message)


class ScopedLogger:
    """Installs `logger` (``None``: the default logger) for the duration of a with block and
    restores the previous one after it."""

    def __init__(self, logger):
        if logger is not None:
            _check_logger(logger)
        self.logger = logger

    def __enter__(self):
        self.saved = _active_logger
        set_logger(self.logger)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        global _active_logger
        _active_logger = self.saved  # no re-check: it must not mask an exception in flight


class ScopedLogLevel:
    """Sets ``treadle.config.log_level`` for the duration of a with block."""

    def __init__(self, log_level: int):
        self.log_level = log_level

    def __enter__(self):
        self.saved = config.log_level
        config.log_level = self.log_level
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        config.log_level = self.saved
