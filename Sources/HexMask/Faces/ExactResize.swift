/// OpenCV's `resize(…, INTER_LINEAR_EXACT)` for 8-bit gray, bit for bit, so the cascade
/// sees the very pyramid OpenCV builds: each destination pixel's source position is
/// `(d + 0.5) · source/destination − 0.5`; outside the picture it takes the edge pixel;
/// inside, the two neighbours weighted in fixed point with 8 fractional bits (the
/// fraction rounded half to even), across first, then down, rounded once at the end.
/// scripts/opencv_faces.py states the rule and checks it against cv2 byte for byte.
///
/// With `region`, only that rectangle of the resized picture is made (its pixels are
/// those of the whole resize): the crop's detector resizes only where a face can be.
func exactBilinearResize(
  _ picture: GrayPicture, width: Int, height: Int, region: PixelBox? = nil
) -> GrayPicture {
  let whole = PixelBox(x: 0, y: 0, width: width, height: height)
  let part = region ?? whole
  guard width > 0, height > 0, picture.width > 0, picture.height > 0, part.x >= 0,
    part.y >= 0, part.width > 0, part.height > 0, part.x + part.width <= width,
    part.y + part.height <= height
  else {
    return region == nil
      ? GrayPicture(width: max(width, 0), height: max(height, 0), pixels: [])
      : GrayPicture(width: 0, height: 0, pixels: [])
  }
  let columns = LinearTaps(source: picture.width, destination: width)
  let rows = LinearTaps(source: picture.height, destination: height)
  var out = [UInt8](repeating: 0, count: part.width * part.height)
  // Two source rows filtered across, reused while the destination rows below still read
  // them: the rows a destination row reads never go back up. Pointers, not arrays, in the
  // loops over pixels: the detector resizes every scale of its pyramid.
  let kept = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * part.width)
  defer { kept.deallocate() }
  var top = (index: -1, row: kept)
  var bottom = (index: -1, row: kept + part.width)
  picture.pixels.withUnsafeBufferPointer { pixels in
    columns.index.withUnsafeBufferPointer { index in
      columns.weight.withUnsafeBufferPointer { weight in
        func across(_ y: Int, into row: UnsafeMutablePointer<UInt32>) {
          let base = y * picture.width
          let last = picture.width - 1
          for x in 0..<part.width {
            let (i, w) = (index[part.x + x], weight[part.x + x])
            let left = UInt32(pixels[base + i])
            let right = UInt32(pixels[base + min(i + 1, last)])
            row[x] = left &* (256 &- w) &+ right &* w
          }
        }
        out.withUnsafeMutableBufferPointer { out in
          for y in 0..<part.height {
            let (upper, weight) = (rows.index[part.y + y], rows.weight[part.y + y])
            let lower = min(upper + 1, picture.height - 1)
            if top.index != upper {
              if bottom.index == upper {
                swap(&top, &bottom)
              } else {
                across(upper, into: top.row)
                top.index = upper
              }
            }
            if bottom.index != lower {
              across(lower, into: bottom.row)
              bottom.index = lower
            }
            let (a, b) = (top.row, bottom.row)
            let row = out.baseAddress.map { $0 + y * part.width }
            guard let row else { continue }
            for x in 0..<part.width {
              let value = a[x] &* (256 &- weight) &+ b[x] &* weight
              row[x] = UInt8(truncatingIfNeeded: min((value &+ (1 << 15)) >> 16, 255))
            }
          }
        }
      }
    }
  }
  return GrayPicture(width: part.width, height: part.height, pixels: out)
}

/// For each destination position along one axis: the left source neighbour and the
/// right one's weight in 1/256 (0 at and beyond the edges).
private struct LinearTaps {
  var index: [Int]
  var weight: [UInt32]

  init(source: Int, destination: Int) {
    index = []
    weight = []
    // cv::resize keeps the inverse scale (destination / source) and inverts it: the twice
    // rounded value decides the ties that source / destination would round the other way.
    let scale = 1.0 / (Double(destination) / Double(source))
    for d in 0..<destination {
      let position = (Double(d) + 0.5) * scale - 0.5
      let left = position.rounded(.down)
      if left < 0 || source == 1 {
        index.append(0)
        weight.append(0)
      } else if left >= Double(source - 1) {
        index.append(source - 1)
        weight.append(0)
      } else {
        let whole = Int(left)
        index.append(whole)
        weight.append(UInt32(((position - left) * 256).rounded(.toNearestOrEven)))
      }
    }
  }
}
