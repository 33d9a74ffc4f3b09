"""Tests of the deprecated config settings (verbose, quiet) and print_launches through the logger."""

import warnings

import treadle as wp


class _Capture:
    def __init__(self):
        self.infos, self.warnings = [], []

    def debug(self, message):
        pass

    def info(self, message):
        self.infos.append(message)

    def warning(self, message, category=None, stacklevel=1):
        self.warnings.append((message, category))

    def error(self, message):
        pass


@wp.kernel
def _noop():
    pass


def test_deprecated_verbose_and_quiet_warn_once_for_user_code():
    capture = _Capture()
    saved_quiet, saved_logger = wp.config.__dict__["quiet"], wp.get_logger()
    wp.config._deprecated_verbose_warning_seen = False
    wp.config._deprecated_quiet_warning_seen = False
    wp.logger._warnings_seen.clear()
    try:
        wp.set_logger(capture)
        with warnings.catch_warnings():
            warnings.simplefilter("always", DeprecationWarning)
            assert wp.config.verbose in (False, True)
            assert wp.config.verbose == wp.config.verbose
            wp.config.quiet = saved_quiet
            wp.config.quiet = saved_quiet
    finally:
        wp.set_logger(saved_logger)
    messages = [m for m, c in capture.warnings if c is DeprecationWarning]
    assert len(messages) == 2
    assert "warp.config.verbose is deprecated" in messages[0]
    assert "warp.config.quiet is deprecated" in messages[1]


def test_print_launches_goes_to_the_logger():
    capture = _Capture()
    saved_logger = wp.get_logger()
    try:
        wp.set_logger(capture)
        wp.config.print_launches = True
        wp.launch(_noop, dim=3, device="cpu")
    finally:
        wp.config.print_launches = False
        wp.set_logger(saved_logger)
    assert any("kernel: " in m and "_noop" in m and "dim: 3" in m for m in capture.infos)
