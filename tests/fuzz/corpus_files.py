"""What the seed-corpus scripts (make-corpus.py, make-util-corpus.py,
make-xlib-corpus.py) share: writing the seeds out, one file each."""

import os


def write_seeds(dirname, seeds):
    """Writes each seed of {name: bytes} to dirname/name, making dirname
    if it is missing."""
    os.makedirs(dirname, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(dirname, name), "wb") as f:
            f.write(data)
