#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every composited frame of an animated image as headless Chromium decodes it.

    apng_chromium_frames.py FILE.png [FILE.png ...] > frames.json

Runs Chromium's WebCodecs ImageDecoder (the decoder <img> uses) on each file in a page of
its own, with premultiplyAlpha "none" and no colour conversion, and prints JSON: per file
the frame count, repetition count, and per frame its duration in microseconds as WebCodecs
reports it and its RGBA bytes (hex). Needs Debian's chromium. Where decoders
disagree about a frame, Chromium decides.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile

PAGE = """<!doctype html><body><pre id=out>pending</pre><script>
(async () => {
  const out = document.getElementById('out');
  try {
    const bytes = Uint8Array.from(atob('%s'), c => c.charCodeAt(0));
    const decoder = new ImageDecoder({data: bytes, type: 'image/png',
      premultiplyAlpha: 'none', colorSpaceConversion: 'none'});
    await decoder.tracks.ready;
    await decoder.completed;
    const track = decoder.tracks.selectedTrack;
    const result = {frames: track.frameCount, repetition: track.repetitionCount, list: []};
    for (let i = 0; i < track.frameCount; i++) {
      const {image} = await decoder.decode({frameIndex: i});
      const w = image.displayWidth, h = image.displayHeight;
      const data = new Uint8Array(w * h * 4);
      await image.copyTo(data, {format: 'RGBA'});
      let hex = '';
      for (const b of data) hex += b.toString(16).padStart(2, '0');
      result.list.push({duration: image.duration, width: w, height: h, format: image.format, rgba: hex});
      image.close();
    }
    out.textContent = '@@' + 'FRAMES' + JSON.stringify(result) + 'FRAMES' + '@@';
  } catch (e) {
    out.textContent = '@@' + 'FRAMES' + JSON.stringify({error: String(e)}) + 'FRAMES' + '@@';
  }
})();
</script>"""


def frames(path):
    # Headless Chromium now and then dumps the page before the decoder is done.
    for _ in range(4):
        result = attempt(path)
        if "error" not in result or not result["error"].startswith("no result"):
            return result
    return result


def attempt(path):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    with tempfile.TemporaryDirectory() as work:
        page = os.path.join(work, "page.html")
        with open(page, "w") as f:
            f.write(PAGE % data)
        run = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--enable-features=WebCodecs", "--virtual-time-budget=10000",
             f"--user-data-dir={work}/profile", "--dump-dom", "file://" + page],
            capture_output=True, text=True, timeout=120)
    found = re.search(r"@@FRAMES(.*?)FRAMES@@", run.stdout, re.S)
    if not found:
        return {"error": "no result: " + run.stderr[-500:]}
    return json.loads(found.group(1).replace("&quot;", '"'))


if __name__ == "__main__":
    json.dump({os.path.basename(p): frames(p) for p in sys.argv[1:]}, sys.stdout)
