#!/usr/bin/env python3
"""Writes the seed corpus of the util targets (fuzz-swapchain.c,
fuzz-dri3util.c) into tests/fuzz/corpus/{swapchain,dri3util}/.

    python3 tests/fuzz/make-util-corpus.py [DIR]

A seed is the driver's 8 header bytes and no script: the scripted server
then behaves as a good server does (fuzz-server.h), so each seed is one
well-formed run of a mode, back end or set of calls for the fuzzer to
mutate. The files are committed; rerun this after changing the format.
"""

import os
import sys

from corpus_files import write_seeds

HERE = os.path.dirname(os.path.abspath(__file__))

FIFO, RELAXED, MAILBOX, IMMEDIATE = range(4)
AUTO, DRI3, SHM, PUT_IMAGE = range(4)
CALLBACK, DISPATCH, DAMAGE, TWICE = 0x10, 0x20, 0x40, 0x80


def swapchain(mode, backend, flags, buffers, frames, timeout_ms, rect=(0, 0, 16, 16)):
    return bytes([mode | backend << 2 | flags, buffers, frames, timeout_ms]) + bytes(rect)


SWAPCHAIN = {
    "fifo-dri3": swapchain(FIFO, AUTO, DISPATCH, 0, 6, 5),
    "fifo-relaxed-dri3-damage": swapchain(RELAXED, DRI3, DAMAGE | CALLBACK, 1, 6, 5),
    "mailbox-shm": swapchain(MAILBOX, SHM, DISPATCH, 2, 8, 2),
    "immediate-shm-twice": swapchain(IMMEDIATE, SHM, TWICE, 0, 5, 1),
    "immediate-put-image": swapchain(IMMEDIATE, PUT_IMAGE, DAMAGE, 0, 4, 1),
    "fifo-no-wait": swapchain(FIFO, DRI3, 0, 4, 10, 0),
}

DRI3UTIL = {
    "all-calls": bytes(8),
    "all-calls-twice": bytes([0, 0, 0, 1, 0, 0, 0, 0]),
    "probe-device": bytes([0x03, 0, 0, 0, 0, 0, 0, 0]),
    "modifiers-depth-32": bytes([0x05, 1, 0, 1, 0, 0, 0, 0]),
    "buffer-from-pixmap": bytes([0x09, 0, 0, 0, 0, 0, 0, 0]),
    "fences": bytes([0x51, 0, 0, 0, 0, 0, 0, 0]),
}


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    for target, seeds in (("swapchain", SWAPCHAIN), ("dri3util", DRI3UTIL)):
        write_seeds(os.path.join(top, target), seeds)


if __name__ == "__main__":
    main()
