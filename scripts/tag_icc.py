#!/usr/bin/env python3
"""Puts an ICC profile into a JPEG or PNG, or takes it out, without touching the pixels.

The colour fixtures need the same pixels under several profiles, and the README's "before"
picture needs a P3 photo whose profile is gone but whose numbers are not converted (what
`--strip` did before it converted). Re-encoding through Pillow would change the JPEG's pixels
and its markers, so this edits the container: the entropy-coded data is copied byte for byte.

  JPEG: the profile goes into APP2 "ICC_PROFILE" segments (ICC.1 Annex B.4), split in chunks
        of at most 65519 bytes, placed after SOI and any leading APP0/APP1 (JFIF, Exif), as
        libjpeg's jpeg_write_icc_profile places them. Existing ICC segments are dropped.
  PNG:  one iCCP chunk right after IHDR (it must precede PLTE and IDAT). Any iCCP, and the
        sRGB and cICP chunks that would contradict or override it, are dropped.

  python3 scripts/tag_icc.py IN OUT --profile Fixtures/icc/DisplayP3.icc
  python3 scripts/tag_icc.py IN OUT --remove
"""
import argparse
import struct
import sys
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ICC_MARKER = b"ICC_PROFILE\x00"
ICC_CHUNK = 65535 - 2 - len(ICC_MARKER) - 2  # length field, identifier, sequence and count


def jpeg_segments(data):
    """Yields (marker, whole segment bytes) up to and including SOS, then (None, the rest)."""
    if data[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG (no SOI)")
    yield 0xD8, data[:2]
    at = 2
    while at < len(data):
        if data[at] != 0xFF:
            raise ValueError(f"JPEG marker expected at byte {at}")
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte before a marker
            at += 1
            continue
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # no length field
            yield marker, data[at : at + 2]
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        end = at + 2 + length
        if end > len(data):
            raise ValueError("JPEG segment runs past the end of the file")
        yield marker, data[at:end]
        at = end
        if marker == 0xDA:  # start of scan: the rest is image data and later markers
            yield None, data[at:]
            return


def is_icc_segment(marker, segment):
    return marker == 0xE2 and segment[4 : 4 + len(ICC_MARKER)] == ICC_MARKER


def jpeg_icc_segments(profile):
    chunks = [profile[i : i + ICC_CHUNK] for i in range(0, len(profile), ICC_CHUNK)]
    if len(chunks) > 255:
        raise ValueError("profile too large for 255 APP2 segments")
    out = b""
    for number, chunk in enumerate(chunks, start=1):
        body = ICC_MARKER + bytes([number, len(chunks)]) + chunk
        out += b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body
    return out


def retag_jpeg(data, profile):
    out, placed = b"", profile is None
    for marker, segment in jpeg_segments(data):
        if marker is not None and is_icc_segment(marker, segment):
            continue
        # The new segments go before the first segment that is not SOI, APP0 or APP1.
        if not placed and marker not in (0xD8, 0xE0, 0xE1):
            out += jpeg_icc_segments(profile)
            placed = True
        out += segment
    return out


def png_chunk(kind, body):
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def retag_png(data, profile, name):
    if data[:8] != PNG_SIGNATURE:
        raise ValueError("not a PNG")
    out, at = data[:8], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        end = at + 12 + length
        if end > len(data):
            raise ValueError("PNG chunk runs past the end of the file")
        if kind not in (b"iCCP",) + ((b"sRGB", b"cICP") if profile is not None else ()):
            out += data[at:end]
        if kind == b"IHDR" and profile is not None:
            out += png_chunk(b"iCCP", name + b"\x00\x00" + zlib.compress(profile, 9))
        at = end
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--profile", help="ICC profile file to embed")
    which.add_argument("--remove", action="store_true", help="take the profile out")
    parser.add_argument("--name", default="ICC profile",
                        help="PNG iCCP profile name (1-79 Latin-1 characters)")
    args = parser.parse_args()
    data = open(args.input, "rb").read()
    profile = None if args.remove else open(args.profile, "rb").read()
    name = args.name.encode("latin-1")
    if not 1 <= len(name) <= 79:
        sys.exit("tag_icc.py: --name must be 1 to 79 characters")
    try:
        if data[:8] == PNG_SIGNATURE:
            result = retag_png(data, profile, name)
        else:
            result = retag_jpeg(data, profile)
    except ValueError as error:
        sys.exit(f"tag_icc.py: {args.input}: {error}")
    with open(args.output, "wb") as out:
        out.write(result)


if __name__ == "__main__":
    main()
