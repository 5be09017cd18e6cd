#!/usr/bin/env python3
"""demo-frame.py SHOT.png N: whether the screenshot is, pixel for pixel,
frame N as xcb-present-demo renders it (tools/xcb-present-demo.c, render())
at the screenshot's size.  Prints the first differing pixel and exits 1
when it is not; exits 0 when it is."""
import struct
import sys
import zlib


def read_png(path):
    """The width, height and rows (bytes of RGB) of an 8-bit RGB PNG whose
    rows all use filter 0, as the demo writes them."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 2):
                raise ValueError("not 8-bit RGB")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    rows = []
    for y in range(height):
        row = raw[y * stride:(y + 1) * stride]
        if row[0] != 0:
            raise ValueError("row %d uses filter %d" % (y, row[0]))
        rows.append(row[1:])
    return width, height, rows


def expected_row(n, y, width):
    """Row y of frame n: checkerboard bands scrolling 2 rows a frame, a
    grey ramp, and the bar 8 pixels further each frame."""
    bar, bar_w = (n * 8) % width, width // 16 + 4
    band = ((y + 2 * n) // 32) & 1
    out = bytearray(3 * width)
    for x in range(width):
        if bar <= x < bar + bar_w:
            px = 0xffd000
        elif band ^ ((x // 32) & 1):
            shade = 0x30 + (x * 0x40) // width
            px = shade << 16 | shade << 8 | 0x60
        else:
            px = 0x202020 | (y & 0x1f)
        out[3 * x:3 * x + 3] = bytes((px >> 16, (px >> 8) & 0xff, px & 0xff))
    return bytes(out)


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    width, height, rows = read_png(path)
    for y in range(height):
        want = expected_row(n, y, width)
        if rows[y] != want:
            x = next(i // 3 for i in range(len(want)) if rows[y][i] != want[i])
            print("pixel %d,%d of %dx%d is %s, frame %d has %s" % (
                x, y, width, height, rows[y][3 * x:3 * x + 3].hex(), n,
                want[3 * x:3 * x + 3].hex()))
            return 1
    print("%dx%d: frame %d" % (width, height, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
