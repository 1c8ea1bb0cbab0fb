#!/usr/bin/env python3
"""Writes the PNG sources for scripts/make-heif-fixtures.sh, with the standard library only.

Usage: heif_fixture_pngs.py decoded-rocket.png icc-source.png outdir

decoded-rocket.png is Fixtures/photos/rocket.jpg as a plain 8-bit RGB PNG (heif-convert
writes one); it is box-filtered down 5 times to 128x85. icc-source.png lends its iCCP chunk.
"""
import struct
import sys
import zlib


def chunks(data):
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def read_png(path):
    data = open(path, "rb").read()
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    pixels = [[tuple(row[x * channels:x * channels + 3]) for x in range(width)] for row in rows]
    return width, height, pixels


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def write_png(path, width, height, rows, colour, depth, extra=b""):
    """rows: lists of sample values, already interleaved."""
    raw = bytearray()
    for row in rows:
        raw.append(0)
        for v in row:
            raw += struct.pack(">H", v) if depth == 16 else bytes([v])
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
    data += extra + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)


def main():
    source, icc_source, out = sys.argv[1:4]
    width, height, pixels = read_png(source)
    f = 5
    w, h = width // f, height // f
    small = []
    for y in range(h):
        row = []
        for x in range(w):
            s = [0, 0, 0]
            for dy in range(f):
                for dx in range(f):
                    p = pixels[y * f + dy][x * f + dx]
                    for c in range(3):
                        s[c] += p[c]
            row.append(tuple((v + f * f // 2) // (f * f) for v in s))
        small.append(row)

    write_png(f"{out}/rocket-128.png", w, h, [[v for p in r for v in p] for r in small], 2, 8)
    # Alpha: opaque inside an ellipse, a soft ramp at its edge, clear outside.
    rows = []
    for y, r in enumerate(small):
        row = []
        for x, p in enumerate(r):
            d = ((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2
            a = 255 if d < 0.6 else (0 if d > 1 else int(round(255 * (1 - d) / 0.4)))
            row += [*p, a]
        rows.append(row)
    write_png(f"{out}/rocket-alpha.png", w, h, rows, 6, 8)
    # 16-bit: the 8-bit picture widened (v * 257).
    write_png(f"{out}/rocket-16.png", w, h, [[v * 257 for p in r for v in p] for r in small], 2, 16)
    # Known colours for the 10-bit rounding test: 8 vertical bands of 8 px, 64x16, each an
    # exact 10-bit grey (stored as v10 << 6 in 16 bits).
    bands = [0, 2, 3, 512, 513, 514, 1021, 1023]
    rows = [[(v << 6) for v in bands for _ in range(8) for _c in range(3)] for _ in range(16)]
    write_png(f"{out}/bands-16.png", 64, 16, rows, 2, 16)
    # The ICC profile of icc_source, embedded into the small picture.
    iccp = next(body for kind, body in chunks(open(icc_source, "rb").read()) if kind == b"iCCP")
    name, rest = iccp.split(b"\0", 1)
    open(f"{out}/profile.icc", "wb").write(zlib.decompress(rest[1:]))
    write_png(f"{out}/rocket-icc.png", w, h, [[v for p in r for v in p] for r in small], 2, 8,
              chunk(b"iCCP", iccp))


main()
