#!/usr/bin/env python3
"""Every composited frame of animations (GIF, APNG, animated WebP) as headless Chromium
decodes them, through WebCodecs' ImageDecoder: the browser's frames are the reference, since
hexmask composites every frame as Chromium shows it (docs/formats.md, "Frames as a browser
shows them").

    scripts/browser_frames.py FILE...            # one TSV row per frame on stdout
    scripts/browser_frames.py --raw DIR FILE...  # also DIR/NAME.N.rgba, the frame's bytes

Columns: file (base name), frame (0-based), width, height, duration_us (as WebCodecs
reports it: the stored delay, before the player's "10 ms or less plays as 100 ms" rule),
repetitions (WebCodecs' repetitionCount: plays after the first, "inf" for forever), and
sha256 of the frame's straight RGBA8 bytes with the colour of fully transparent pixels set
to 0 (decoders disagree on it, and nobody sees it). The pixels are the file's own: an ICC
profile is not applied (colorSpaceConversion "none"), since hexmask converts colours in a
stage of its own. (Chromium ignores a GIF's profile anyway: Fixtures/animation/icc-p3.gif
gives the same bytes either way.)

Needs Debian's `chromium` (apt-get install chromium). A small server on 127.0.0.1 hands
the page and the files to Chromium and takes back the frames the page posts: --dump-dom
cannot wait for WebCodecs' decoding, which runs off the main thread. As root Chromium
needs --no-sandbox; a throwaway profile folder keeps it away from any user's.
"""

import base64
import hashlib
import http.server
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading

TYPES = {".gif": "image/gif", ".png": "image/png", ".apng": "image/png", ".webp": "image/webp",
         ".jxl": "image/jxl"}

PAGE = """<!doctype html><html><body><script>
(async () => {
  const results = [];
  for (const input of %s) {
    const row = {name: input.name, frames: []};
    try {
      const bytes = new Uint8Array(await (await fetch("/file/" + input.index)).arrayBuffer());
      const decoder = new ImageDecoder(
          {data: bytes, type: input.type, colorSpaceConversion: "none"});
      await decoder.completed;
      await decoder.tracks.ready;
      const track = decoder.tracks.selectedTrack;
      row.repetitions = track.repetitionCount === Infinity ? "inf" : track.repetitionCount;
      for (let i = 0; i < track.frameCount; i++) {
        const frame = (await decoder.decode({frameIndex: i})).image;
        const rgba = new Uint8Array(frame.allocationSize({format: "RGBA"}));
        await frame.copyTo(rgba, {format: "RGBA"});
        let text = "";
        for (let j = 0; j < rgba.length; j += 8192)
          text += String.fromCharCode.apply(null, rgba.subarray(j, j + 8192));
        row.frames.push({width: frame.codedWidth, height: frame.codedHeight,
                         duration: frame.duration, rgba: btoa(text)});
        frame.close();
      }
    } catch (error) {
      row.error = String(error);
    }
    results.push(row);
  }
  await fetch("/results", {method: "POST", body: JSON.stringify(results)});
})();
</script></body></html>
"""


def canonical(rgba):
    """RGBA bytes with the colour of fully transparent pixels zeroed."""
    pixels = bytearray(rgba)
    for i in range(3, len(pixels), 4):
        if pixels[i] == 0:
            pixels[i - 3 : i] = b"\0\0\0"
    return bytes(pixels)


def decode(paths):
    """Serves a page and the files on 127.0.0.1 (a secure context, as WebCodecs needs),
    lets Chromium decode them there, and waits for the page to post its results."""
    inputs = [{"name": os.path.basename(p), "index": i,
               "type": TYPES[os.path.splitext(p)[1].lower()]} for i, p in enumerate(paths)]
    posted = queue.Queue()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/":
                body, kind = (PAGE % json.dumps(inputs)).encode(), "text/html"
            elif self.path.startswith("/file/"):
                with open(paths[int(self.path[6:])], "rb") as f:
                    body, kind = f.read(), "application/octet-stream"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            posted.put(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="browser-frames.") as work:
        browser = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--user-data-dir=" + os.path.join(work, "profile"),
             f"http://127.0.0.1:{server.server_address[1]}/"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            results = json.loads(posted.get(timeout=120))
        except queue.Empty:
            sys.exit("browser_frames: chromium posted no results in 120 s")
        finally:
            browser.terminate()
            browser.wait(timeout=30)
            server.shutdown()
    return results


def main(argv):
    raw = None
    if argv[:1] == ["--raw"]:
        raw, argv = argv[1], argv[2:]
        os.makedirs(raw, exist_ok=True)
    if not argv:
        sys.exit(__doc__)
    print("file\tframe\twidth\theight\tduration_us\trepetitions\tsha256")
    for row in decode(argv):
        if "error" in row:
            print(f"{row['name']}\terror\t{row['error']}")
            continue
        for index, frame in enumerate(row["frames"]):
            pixels = canonical(base64.b64decode(frame["rgba"]))
            if raw:
                with open(os.path.join(raw, f"{row['name']}.{index}.rgba"), "wb") as f:
                    f.write(pixels)
            print(f"{row['name']}\t{index}\t{frame['width']}\t{frame['height']}\t"
                  f"{frame['duration']}\t{row['repetitions']}\t"
                  f"{hashlib.sha256(pixels).hexdigest()}")


if __name__ == "__main__":
    main(sys.argv[1:])
