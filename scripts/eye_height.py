#!/usr/bin/env python3
"""Where the eyes sit in a face box of OpenCV's frontalface_alt2 cascade (FaceFraming.eyeHeight).

    python3 scripts/eye_height.py Fixtures/faces/detect/*.jpg
    python3 scripts/eye_height.py portrait1.jpg portrait2.jpg …

For every face detectMultiScale(gray, 1.1, 3) finds, looks for eyes with haarcascade_eye.xml
in the face (scaled to at least 240 px), keeps the two largest in its upper 60 %, and prints
their mean centre height as a share of the box's height from its top; then the count,
mean, median, range and spread. Measured for docs/faces.md ("Frame the face"): 0.359-0.389
(mean 0.374) on the 40 boxes of Fixtures/faces/detect, 0.367-0.412 (mean 0.390) on six
photographs of four people, three of them others (face_recognition 1.3.0's test pictures
of Biden and Obama, mahotas' lena.jpg, and scikit-image's astronaut.png), which are not in
Fixtures.
"""
import os
import sys

import cv2
import numpy as np

CASCADES = "/usr/share/opencv4/haarcascades/"


def main(files):
    face = cv2.CascadeClassifier(CASCADES + "haarcascade_frontalface_alt2.xml")
    eye = cv2.CascadeClassifier(CASCADES + "haarcascade_eye.xml")
    shares = []
    for path in files:
        picture = cv2.imread(path)
        if picture is None:
            continue
        gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
        for x, y, w, h in face.detectMultiScale(gray, 1.1, 3):
            roi = gray[y:y + h, x:x + w]
            big = cv2.resize(roi, (240, 240)) if w < 240 else roi
            scale = big.shape[0] / h
            eyes = eye.detectMultiScale(big, 1.05, 3, minSize=(int(0.12 * big.shape[0]),) * 2)
            eyes = [e for e in eyes if e[1] + e[3] / 2 < 0.6 * big.shape[0]]
            name = os.path.basename(path)
            if len(eyes) < 2:
                print(f"{name} {(x, y, w, h)}: {len(eyes)} eyes found")
                continue
            eyes = sorted(eyes, key=lambda e: -e[2])[:2]
            share = np.mean([(e[1] + e[3] / 2) / scale for e in eyes]) / h
            shares.append(share)
            print(f"{name} {(x, y, w, h)}: eyes at {share:.3f} of the box")
    if shares:
        print(f"n={len(shares)} mean={np.mean(shares):.3f} median={np.median(shares):.3f} "
              f"min={min(shares):.3f} max={max(shares):.3f} sd={np.std(shares):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
