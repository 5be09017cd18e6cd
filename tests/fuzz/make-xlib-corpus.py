#!/usr/bin/env python3
"""Writes the seed corpus of fuzz-xlib (tests/fuzz/corpus/xlib/).

Each seed is the 5-byte header fuzz-xlib.c describes (mode and script,
fds, Present's major opcode, first event, first error) and a stream of
well-formed packets as the Present specification encodes them: the two
replies libXpresent asks for, an error, and each event (ConfigureNotify,
CompleteNotify, IdleNotify, RedirectNotify with notifies), plus an unknown
event type, an event shorter than its type and one padded past it.

    make-xlib-corpus.py OUTDIR
"""
import struct
import sys

from corpus_files import write_seeds

MAJOR_BYTE = 0x0D           # Present's major opcode: 128 + 13 = 141
NO_PRESENT, CUT_SHORT, PRESENT_EVENTS = 1, 2, 4
(QUERIES, CAPABILITIES, SELECT, PIXMAP, NOTIFY_MSC, PIXMAP_SYNCED, EXTENSION,
 FREE_INPUT) = range(8)


def header(script, flags=0, nfds=0):
    return bytes([flags | script << 3, nfds, MAJOR_BYTE, 0, 0])


def reply(words):
    """A reply of 32 bytes; the sequence number is the server's."""
    body = struct.pack('<BBHI', 1, 0, 0, 0) + b''.join(struct.pack('<I', w) for w in words)
    return body.ljust(32, b'\0')


def error(code, bad, minor):
    return struct.pack('<BBHIHB', 0, code, 0, bad, minor, 128 + MAJOR_BYTE).ljust(32, b'\0')


def event(evtype, fields, length=None):
    """A Generic Event: the 16-byte header (event id 0x200100), then fields."""
    if length is None:
        length = max(0, len(fields) - 16 + 3) // 4
    # Cut to what the length says, or padded to it.
    data = fields[:16 + 4 * length].ljust(16 + 4 * length, b'\0')
    head = struct.pack('<BBHIHHI', 35, 128 + MAJOR_BYTE, 0, length, evtype, 0, 0x200100)
    return head + data


def configure_notify():
    # window, x, y, width, height, off_x, off_y, pixmap width, height, flags
    return event(0, struct.pack('<IhhHHhhHHI', 0x123, -5, 7, 640, 480, 0, 0, 640, 480, 1))


def complete_notify(length=None):
    # kind, mode (bytes 10-11 of the event), window, serial, ust, msc
    e = bytearray(event(1, struct.pack('<IIQQ', 0x123, 42, 1000016, 77), length))
    e[10], e[11] = 0, 1
    return bytes(e)


def idle_notify(length=None):
    return event(2, struct.pack('<IIII', 0x123, 42, 0x200010, 0), length)


def redirect_notify(notifies):
    fields = struct.pack('<IIIIII', 0x123, 0x124, 0x200010, 9, 0, 0)
    fields += struct.pack('<hhHH', 0, 0, 64, 64) * 2
    fields += struct.pack('<hhIIII', 1, -1, 0, 0, 0, 2) + b'\0' * 4
    fields += struct.pack('<QQQ', 100, 2, 1)
    fields += b''.join(struct.pack('<II', w, s) for w, s in notifies)
    return event(3, fields)


EVENTS = (configure_notify() + complete_notify() + idle_notify() +
          redirect_notify([(0x125, 1), (0x126, 2)]) + event(0xffff, b'') +
          complete_notify(length=0) + idle_notify(length=4) + redirect_notify([]))

SEEDS = {
    'queries-reply': header(QUERIES) + reply([1, 4]),
    'queries-error': header(QUERIES) + error(2, 1, 0) + reply([1, 4]),
    'queries-two-replies': header(QUERIES) + reply([1, 2]) + reply([9, 9]),
    'capabilities-reply': header(CAPABILITIES) + reply([0x1f]),
    'capabilities-error': header(CAPABILITIES) + error(3, 0x123, 4),
    'select-events': header(SELECT, PRESENT_EVENTS) + EVENTS,
    'select-events-cut-short': header(SELECT, PRESENT_EVENTS | CUT_SHORT) + EVENTS[:-20],
    'select-events-with-fds': header(SELECT, PRESENT_EVENTS, nfds=2) + EVENTS,
    'select-no-present': header(SELECT, NO_PRESENT | PRESENT_EVENTS) + EVENTS,
    'pixmap-error-and-events': header(PIXMAP, PRESENT_EVENTS) + error(9, 0x200010, 1) + EVENTS,
    'notify-msc-complete': header(NOTIFY_MSC, PRESENT_EVENTS) + complete_notify(),
    'pixmap-synced-error': header(PIXMAP_SYNCED, PRESENT_EVENTS) + error(2, 0, 5) + EVENTS,
    'extension-events': header(EXTENSION, PRESENT_EVENTS) + EVENTS,
    'free-input-error': header(FREE_INPUT) + error(2, 0x200020, 3),
}


def main():
    write_seeds(sys.argv[1], SEEDS)


if __name__ == '__main__':
    main()
