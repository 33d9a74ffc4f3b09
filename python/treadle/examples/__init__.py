"""Runnable examples: `python -m treadle.examples.<name>`.

The folder helpers are those of Warp's `warp.examples`, so that Warp's examples find their
files: assets are looked up in $TREADLE_EXAMPLE_ASSETS when it is set (for instance the
`warp/examples/assets` folder of an unpacked warp-lang wheel; treadle ships none of Warp's)."""

import os


def get_source_directory():
    """The folder of treadle's example sources."""
    return os.path.dirname(os.path.realpath(__file__))


def get_asset_directory():
    """The folder of example assets: $TREADLE_EXAMPLE_ASSETS, else `assets` beside the sources."""
    return os.environ.get("TREADLE_EXAMPLE_ASSETS") or os.path.join(get_source_directory(),
                                                                     "assets")

