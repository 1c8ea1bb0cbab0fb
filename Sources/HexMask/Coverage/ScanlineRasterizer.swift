/// Exact-area coverage of polygons, one pixel row at a time.
///
/// Each edge deposits, into the cells it crosses, its signed height times how much of
/// the cell lies to its right (`area`) and the rest of its height into the next cell, so
/// that a running sum along the row gives the exact area of the shape inside each pixel
/// (the font-rs / stb_truetype idea). Polygons added with opposite winding subtract:
/// a border is its outer edge minus its inner edge. Memory is one row of cells plus the
/// edges; rows must be requested top to bottom (going back restarts the edge scan).
///
/// ```swift
/// var raster = ScanlineRasterizer(width: 64)
/// raster.add(polygon: hexagonPoints)
/// var row = [Float](repeating: 0, count: 64)
/// raster.coverage(row: 10, into: &row)   // row[i] = area inside pixel (i, 10), 0…1
/// ```
package struct ScanlineRasterizer: Sendable {
  struct Edge: Sendable {
    var x0, y0, x1, y1: Double  // y0 < y1
    var winding: Double  // +1 or −1: the direction the edge runs, times the polygon's sign
  }

  package let width: Int
  private var edges: [Edge] = []
  private var sorted = false
  /// Edges that may reach the current row; `next` is the first edge not yet activated.
  private var active: [Int] = []
  private var next = 0
  private var lastRow = Int.min
  /// Cell deposits for the current row; two spare cells catch the right-hand overflow.
  private var cells: [Double]
  /// The cells deposited into this row, unordered, and a flag per cell to list each once.
  private var touched: [Int] = []
  private var isTouched: [Bool]

  package init(width: Int) {
    self.width = width
    cells = [Double](repeating: 0, count: width + 2)
    isTouched = [Bool](repeating: false, count: width + 2)
  }

  /// Adds a closed polygon; `sign` −1 subtracts its area from what is already there. A
  /// polygon with a point that is not finite has no area to speak of and is left out.
  package mutating func add(polygon: [Point], sign: Double = 1) {
    guard polygon.count >= 3, polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
      return
    }
    for i in polygon.indices {
      let a = polygon[i]
      let b = polygon[(i + 1) % polygon.count]
      if a.y == b.y { continue }  // horizontal edges deposit nothing
      edges.append(
        a.y < b.y
          ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, winding: sign)
          : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, winding: -sign))
    }
    sorted = false
  }

  /// Writes the coverage of pixel row `y` (pixels `[i, i+1] × [y, y+1]`) into `row`,
  /// which holds `width` values, each the covered fraction of its pixel, 0…1.
  ///
  /// Afterwards ``edgeCells`` lists, in increasing order, the pixels edges passed through;
  /// between two of them the coverage is constant (0 or 1 for a simple shape), which is
  /// what lets the compositor copy or clear whole runs.
  ///
  /// - Complexity: O(edges crossing the row + cells they cross), plus filling the row.
  package mutating func coverage(row y: Int, into row: inout [Float]) {
    prepare(for: y)
    let top = Double(y)
    let bottom = top + 1
    for index in active {
      let e = edges[index]
      let ya = max(e.y0, top)
      let yb = min(e.y1, bottom)
      guard ya < yb else { continue }
      let slope = (e.x1 - e.x0) / (e.y1 - e.y0)
      let xa = e.x0 + (ya - e.y0) * slope
      let xb = e.x0 + (yb - e.y0) * slope
      deposit(xa: xa, ya: ya - top, xb: xb, yb: yb - top, winding: e.winding)
    }
    touched.sort()
    edgeCells.removeAll(keepingCapacity: true)
    var sum = 0.0
    var filled = 0
    row.withUnsafeMutableBufferPointer { out in
      for cell in touched {
        isTouched[cell] = false
        if cell >= width {
          cells[cell] = 0
          continue
        }
        // The run since the last touched cell keeps the running sum unchanged.
        UnsafeMutableBufferPointer(rebasing: out[filled..<cell]).update(repeating: level(sum))
        sum += cells[cell]
        cells[cell] = 0
        out[cell] = level(sum)
        edgeCells.append(cell)
        filled = cell + 1
      }
      UnsafeMutableBufferPointer(rebasing: out[filled..<width]).update(repeating: level(sum))
    }
    touched.removeAll(keepingCapacity: true)
  }

  /// The pixels of the last row that edges passed through, in increasing order.
  package private(set) var edgeCells: [Int] = []

  /// Coverage from a winding sum: nonzero rule, clamped to one. Sums within rounding of
  /// 0 or 1 (a border's outer minus inner edge inside the shape leaves ±1e-16) snap to
  /// exactly 0 or 1, so runs inside and outside are recognised as such.
  @inline(__always) private func level(_ sum: Double) -> Float {
    let coverage = min(1, abs(sum))
    return coverage < 1e-9 ? 0 : coverage > 1 - 1e-9 ? 1 : Float(coverage)
  }

  /// Activates edges that start above the row's bottom and drops those ending above it.
  private mutating func prepare(for y: Int) {
    if !sorted {
      edges.sort { $0.y0 < $1.y0 }
      sorted = true
      lastRow = Int.min
    }
    if y < lastRow {
      active.removeAll(keepingCapacity: true)
      next = 0
    }
    lastRow = y
    let top = Double(y)
    let bottom = top + 1
    while next < edges.count && edges[next].y0 < bottom {
      active.append(next)
      next += 1
    }
    active.removeAll { edges[$0].y1 <= top }
  }

  /// Deposits one edge piece lying within the row (`ya`, `yb` in 0…1, measured from the
  /// row's top). Parts left of the canvas count fully in cell 0; parts right of it fall
  /// into the spare cells and are never read.
  private mutating func deposit(xa: Double, ya: Double, xb: Double, yb: Double, winding: Double) {
    // Walk left to right; `sign` keeps each piece's height signed as the edge runs.
    let (xl, yl, xr, yr) = xa <= xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
    let sign = xa <= xb ? winding : -winding
    let right = Double(width)
    if xr <= 0 || xl == xr {
      // Vertical (or wholly left of the canvas): one cell takes it all.
      let x = min(max(xl, 0), right)
      let i = min(Int(x), width)
      let inside = x - Double(i)
      let height = sign * (yr - yl)
      add(height * (1 - inside), at: i)
      add(height * inside, at: i + 1)
      return
    }
    if xl >= right { return }
    let slope = (yr - yl) / (xr - xl)
    var x = xl
    var y = yl
    if x < 0 {
      let y0 = yl + (0 - xl) * slope
      add(sign * (y0 - y), at: 0)
      x = 0
      y = y0
    }
    let end = min(xr, right)
    var i = Int(x)
    while x < end {
      let nx = min(Double(i + 1), end)
      let ny = nx == xr ? yr : yl + (nx - xl) * slope
      let height = sign * (ny - y)
      let middle = (x + nx) / 2 - Double(i)
      add(height * (1 - middle), at: i)
      add(height * middle, at: i + 1)
      x = nx
      y = ny
      i += 1
    }
  }

  /// Adds `amount` to cell `i`, remembering the cell so the row's sum visits only these.
  @inline(__always) private mutating func add(_ amount: Double, at i: Int) {
    cells[i] += amount
    if !isTouched[i] {
      isTouched[i] = true
      touched.append(i)
    }
  }
}
