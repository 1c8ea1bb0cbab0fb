#!/usr/bin/env python3
"""Makes the hand-made GIFs of Fixtures/animation/ (edge-*.gif): the corners of the format
where decoders differ, written byte by byte, so that Chromium's answer on each is on
record (scripts/gif_references.py) and GIFFramesTests holds hexmask to it.

    scripts/make_gif_edge_cases.py

The LZW encoder below writes a clear code before every two pixels, so that the code
width never grows: valid, if wasteful, as the GIF89a specification allows.
"""

import os
import struct

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Fixtures", "animation")


def lzw(pixels, min_size=2):
    clear, end = 1 << min_size, (1 << min_size) + 1
    width = min_size + 1
    codes = []
    for i in range(0, len(pixels), 2):
        codes.append(clear); codes += pixels[i:i+2]
    codes.append(end)
    bits = 0; n = 0; out = bytearray()
    for c in codes:
        bits |= c << n; n += width
        while n >= 8: out.append(bits & 255); bits >>= 8; n -= 8
    if n: out.append(bits & 255)
    data = bytearray([min_size])
    for i in range(0, len(out), 255):
        chunk = out[i:i+255]; data += bytes([len(chunk)]) + chunk
    return bytes(data + b"\0")
def screen(w, h, table=True):
    return b"GIF89a" + struct.pack("<HHBBB", w, h, 0x80 if table else 0, 0, 0) + (bytes([255,0,0, 0,0,255]) if table else b"")
def gce(disposal=0, delay=10, transparent=None, size=4):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    body = struct.pack("<BHB", flags, delay, transparent or 0)[:size] if size <= 4 else struct.pack("<BHB", flags, delay, transparent or 0) + b"\0" * (size - 4)
    return b"\x21\xf9" + bytes([size]) + body + b"\0"
def image(x, y, w, h, pixels, local=None, interlaced=False):
    flags = 0x40 if interlaced else 0
    lt = b""
    if local is not None:
        flags |= 0x80; lt = local
    return b"\x2c" + struct.pack("<HHHHB", x, y, w, h, flags) + lt + lzw(pixels)
netscape = lambda n: b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", n) + b"\0"
T = b"\x3b"
files = {
 # index 2 and 3 past a 2-colour table
 "beyond-table.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,1,2,3]) + gce() + image(0,0,2,2,[3,3,0,1]) + T,
 # no colour table at all
 "no-table.gif": screen(2, 2, table=False) + gce() + image(0,0,2,2,[0,1,2,3]) + gce() + image(0,0,2,2,[1,1,0,0]) + T,
 # disposal 4 (and 5..7) vs 3
 "disposal-4.gif": screen(4, 4) + gce(0) + image(0,0,4,1,[0,0,0,0]) + gce(4) + image(0,1,2,2,[1,1,1,1]) + gce(0) + image(2,2,2,1,[1,1]) + T,
 "disposal-5.gif": screen(4, 4) + gce(0) + image(0,0,4,1,[0,0,0,0]) + gce(5) + image(0,1,2,2,[1,1,1,1]) + gce(0) + image(2,2,2,1,[1,1]) + T,
 "disposal-7.gif": screen(4, 4) + gce(0) + image(0,0,4,1,[0,0,0,0]) + gce(7) + image(0,1,2,2,[1,1,1,1]) + gce(0) + image(2,2,2,1,[1,1]) + T,
 # first frame "previous", then background
 "first-previous.gif": screen(4, 4) + gce(3) + image(0,0,4,4,[0]*16) + gce(2) + image(1,1,2,2,[1,1,1,1]) + gce(0) + image(0,0,1,1,[1]) + T,
 # zero-size frame in the middle
 "zero-frame.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + b"\x2c" + struct.pack("<HHHHB",0,0,0,0,0) + b"\x02\x01\x0c\x00" + gce() + image(0,0,1,1,[1]) + T,
 # later frame wholly outside
 "outside.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + image(40,40,2,2,[1,1,1,1]) + T,
 # zero screen
 "zero-screen.gif": screen(0, 0) + gce() + image(0,0,2,2,[0,1,1,0]) + T,
 # short gce
 "short-gce.gif": screen(2, 2) + gce(size=2) + image(0,0,2,2,[0,1,1,0]) + gce() + image(0,0,2,2,[1,1,1,1]) + T,
 "long-gce.gif": screen(2, 2) + gce(size=6) + image(0,0,2,2,[0,1,1,0]) + gce() + image(0,0,2,2,[1,1,1,1]) + T,
 # no trailer
 "no-trailer.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + image(0,0,1,1,[1]),
 # truncated inside frame 1
 "cut.gif": (screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + image(0,0,2,2,[1,1,1,1]))[:-3],
 # netscape after first frame
 "late-loop.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + netscape(2) + gce() + image(0,0,1,1,[1]) + T,
 # loop count 65535: Chromium repeats 65535 times
 "loop-65535.gif": screen(2, 2) + netscape(65535) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + image(0,0,1,1,[1]) + T,
 # an interlaced 3x10 frame at 2,1 on a 4x4 canvas: rows past the canvas dropped, and
 # its stored rows (0, 8, 4, 2, 6, 1, 3, 5, 7, 9) told apart by their colours
 "interlaced-clipped.gif": screen(4, 4) + gce() + image(0,0,4,4,[0]*16) + gce()
   + image(2,1,3,10,[c for r in range(10) for c in ([1,2,3] if r % 3 == 0 else [2,1,1] if r % 3 == 1 else [3,3,1])], interlaced=True) + T,
 # bad lzw (code 7 with min size 2)
 "bad-lzw.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + gce() + b"\x2c" + struct.pack("<HHHHB",0,0,2,2,0) + b"\x02\x02\xff\xff\x00" + T,
 # garbage after frames instead of trailer
 "garbage-end.gif": screen(2, 2) + gce() + image(0,0,2,2,[0,0,0,0]) + b"\x99\x99",
}
for d in (0, 3):
    files[f"disposal-{d}.gif"] = (screen(4, 4) + gce(0) + image(0, 0, 4, 1, [0, 0, 0, 0]) + gce(d)
                                  + image(0, 1, 2, 2, [1, 1, 1, 1]) + gce(0) + image(2, 2, 2, 1, [1, 1]) + T)
for name, data in files.items():
    with open(os.path.join(OUT, "edge-" + name), "wb") as f:
        f.write(data)
