#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets into tests/fuzz/corpus/.

    python3 tests/fuzz/make-corpus.py [DIR]

Each seed is a well-formed answer of the kind the wire tests
(tests/wire/wire-*.c) send, in the targets' input format: two header bytes
(mode, fd count) and then the packets. The targets patch sequence numbers,
so the seeds carry 0 there. The files are committed; rerun this after
changing the input format.
"""

import os
import struct
import sys

from corpus_files import write_seeds

HERE = os.path.dirname(os.path.abspath(__file__))
PRESENT_MAJOR = 141
EID = 0x00200010


def reply(byte1, body):
    """A reply: 8-byte head, then body padded to 24 bytes at least, then to words."""
    if len(body) < 24:
        body += bytes(24 - len(body))
    body += bytes(-len(body) % 4)
    return struct.pack("<BBHI", 1, byte1, 0, (len(body) - 24) // 4) + body


def error(code, bad=0, minor=0, major=0):
    return struct.pack("<BBHIHB", 0, code, 0, bad, minor, major) + bytes(21)


def ge(evtype, body):
    """A Present Generic Event: body follows the event type, padded to 32 bytes at least."""
    data = struct.pack("<H", evtype) + body
    data += bytes(-(len(data) + 8) % 4)
    if len(data) + 8 < 32:
        data += bytes(32 - 8 - len(data))
    return struct.pack("<BBHI", 35, PRESENT_MAJOR, 0, (len(data) + 8 - 32) // 4) + data


def replies():
    seeds = {}
    seeds["dri3-query-version"] = (0, 0, reply(0, struct.pack("<II", 1, 4)))
    seeds["dri3-open"] = (1, 1, reply(1, b""))
    seeds["dri3-open-unchecked"] = (9, 1, reply(1, b""))
    seeds["dri3-buffer-from-pixmap"] = (
        2, 1, reply(1, struct.pack("<IHHHBB", 640 * 480 * 4, 640, 480, 2560, 24, 32)))
    seeds["dri3-fd-from-fence"] = (3, 1, reply(1, b""))
    mods = [0, 0x0100000000000001, 0x00ffffffffffffff]
    seeds["dri3-get-supported-modifiers"] = (
        4, 0, reply(0, struct.pack("<II", 2, 1) + bytes(16) +
                    b"".join(struct.pack("<Q", m) for m in mods)))
    seeds["dri3-get-supported-modifiers-empty"] = (4, 0, reply(0, struct.pack("<II", 0, 0)))
    for n in (1, 4):
        seeds[f"dri3-buffers-from-pixmap-{n}"] = (
            5, n, reply(n, struct.pack("<HHIQBB", 640, 480, 0, 0, 24, 32) + bytes(6) +
                        b"".join(struct.pack("<I", 2560) for _ in range(n)) +
                        b"".join(struct.pack("<I", 4096 * i) for i in range(n))))
    seeds["present-query-version"] = (6, 0, reply(0, struct.pack("<II", 1, 4)))
    seeds["present-query-capabilities"] = (7, 0, reply(0, struct.pack("<I", 0x1f)))
    # The case the first fuzzing pass found: an error, then a reply with the
    # same sequence number that says one fd, and no fd sent.
    for req in (1, 2, 3, 5):
        seeds[f"error-then-reply-{req}"] = (req, 0, error(8) + reply(1, b""))
        seeds[f"error-then-reply-unchecked-{req}"] = (req | 8, 0, error(8) + reply(1, b""))
    seeds["dri3-open-two-replies"] = (1, 2, reply(1, b"") + reply(1, b""))
    return seeds


def notify(window, serial):
    return struct.pack("<II", window, serial)


def events():
    seeds = {}
    configure = ge(0, bytes(2) + struct.pack("<IIhhHHhhHHI", EID, 0x400001, 0, 0, 640, 480,
                                             0, 0, 640, 480, 0))
    complete = ge(1, struct.pack("<BBIIIQQ", 0, 1, EID, 0x400001, 7, 123456789, 42))
    idle = ge(2, bytes(2) + struct.pack("<IIIII", EID, 0x400001, 7, 0x200001, 0x200002))

    def redirect(n):
        fixed = bytes([1, 0]) + struct.pack("<IIIII", EID, 0x400001, 0x400001, 0x200001, 7)
        fixed += struct.pack("<II", 0, 0) + bytes(16) + struct.pack("<hhIIII", 0, 0, 0, 0, 0, 0)
        fixed += bytes(4) + struct.pack("<QQQ", 100, 1, 0)
        return ge(3, fixed + b"".join(notify(0x400002 + i, i) for i in range(n)))

    for name, packet in (("configure", configure), ("complete", complete), ("idle", idle),
                         ("redirect-0", redirect(0)), ("redirect-2", redirect(2))):
        seeds[f"{name}-special"] = (0x07, 0, packet)
        seeds[f"{name}-queue"] = (0x04, 0, packet)
        seeds[f"{name}-poll"] = (0x17, 0, packet)
    # RedirectNotify with length 0: 32 bytes on the wire for a 104-byte event.
    short = bytearray(redirect(0)[:32])
    short[4:8] = bytes(4)
    seeds["redirect-length-0"] = (0x07, 0, bytes(short))
    seeds["mixed-with-fds"] = (0x07, 2, configure + complete + idle + error(3))
    return seeds


def write(dirname, seeds):
    """Each seed's file starts with its mode and fd count."""
    write_seeds(dirname, {name: bytes([mode, nfds]) + data
                          for name, (mode, nfds, data) in seeds.items()})


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    write(os.path.join(top, "replies"), replies())
    write(os.path.join(top, "events"), events())


if __name__ == "__main__":
    main()
