/// OpenCV's `resize(…, INTER_LINEAR_EXACT)` for 8-bit gray, bit for bit, so the cascade
/// sees the very pyramid OpenCV builds: each destination pixel's source position is
/// `(d + 0.5) · source/destination − 0.5`; outside the picture it takes the edge pixel;
/// inside, the two neighbours weighted in fixed point with 8 fractional bits (the
/// fraction rounded half to even), across first, then down, rounded once at the end.
/// scripts/opencv_faces.py states the rule and checks it against cv2 byte for byte.
func exactBilinearResize(_ picture: GrayPicture, width: Int, height: Int) -> GrayPicture {
  guard width > 0, height > 0, picture.width > 0, picture.height > 0 else {
    return GrayPicture(width: max(width, 0), height: max(height, 0), pixels: [])
  }
  let columns = LinearTaps(source: picture.width, destination: width)
  let rows = LinearTaps(source: picture.height, destination: height)
  var out = [UInt8](repeating: 0, count: width * height)
  // Source rows filtered across, kept while the rows below still need them: the rows a
  // destination row reads never go back up.
  var rowsAcross: [(index: Int, row: [UInt32])] = []
  func across(_ y: Int) -> [UInt32] {
    if let kept = rowsAcross.first(where: { $0.index == y }) { return kept.row }
    var row = [UInt32](repeating: 0, count: width)
    picture.pixels.withUnsafeBufferPointer { pixels in
      let base = y * picture.width
      for x in 0..<width {
        let (index, weight) = (columns.index[x], columns.weight[x])
        let left = UInt32(pixels[base + index])
        let right = UInt32(pixels[base + min(index + 1, picture.width - 1)])
        row[x] = left * (256 - weight) + right * weight
      }
    }
    rowsAcross.append((y, row))
    if rowsAcross.count > 2 { rowsAcross.removeFirst() }
    return row
  }
  out.withUnsafeMutableBufferPointer { out in
    for y in 0..<height {
      let (index, weight) = (rows.index[y], rows.weight[y])
      let top = across(index)
      let bottom = across(min(index + 1, picture.height - 1))
      for x in 0..<width {
        let value = top[x] * (256 - weight) + bottom[x] * weight
        out[y * width + x] = UInt8(min((value + (1 << 15)) >> 16, 255))
      }
    }
  }
  return GrayPicture(width: width, height: height, pixels: out)
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
