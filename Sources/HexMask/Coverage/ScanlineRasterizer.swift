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
public struct ScanlineRasterizer: Sendable {
  struct Edge: Sendable {
    var x0, y0, x1, y1: Double  // y0 < y1
    var winding: Double  // +1 or −1: the direction the edge runs, times the polygon's sign
  }

  public let width: Int
  private var edges: [Edge] = []
  private var sorted = false
  /// Edges that may reach the current row; `next` is the first edge not yet activated.
  private var active: [Int] = []
  private var next = 0
  private var lastRow = Int.min
  /// Cell deposits for the current row; two spare cells catch the right-hand overflow.
  private var cells: [Double]

  public init(width: Int) {
    self.width = width
    cells = [Double](repeating: 0, count: width + 2)
  }

  /// Adds a closed polygon; `sign` −1 subtracts its area from what is already there.
  public mutating func add(polygon: [Point], sign: Double = 1) {
    guard polygon.count >= 3 else { return }
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
  /// - Complexity: O(width + edges crossing the row + cells they cross).
  public mutating func coverage(row y: Int, into row: inout [Float]) {
    prepare(for: y)
    let top = Double(y)
    let bottom = top + 1
    var lowest = width
    var highest = -1
    for index in active {
      let e = edges[index]
      let ya = max(e.y0, top)
      let yb = min(e.y1, bottom)
      guard ya < yb else { continue }
      let slope = (e.x1 - e.x0) / (e.y1 - e.y0)
      let xa = e.x0 + (ya - e.y0) * slope
      let xb = e.x0 + (yb - e.y0) * slope
      deposit(
        xa: xa, ya: ya - top, xb: xb, yb: yb - top, winding: e.winding, lowest: &lowest,
        highest: &highest)
    }
    var sum = 0.0
    for i in 0..<width {
      if i >= lowest && i <= highest + 1 {
        sum += cells[i]
        cells[i] = 0
      }
      row[i] = Float(min(1, abs(sum)))
    }
    cells[width] = 0
    cells[width + 1] = 0
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
  private mutating func deposit(
    xa: Double, ya: Double, xb: Double, yb: Double, winding: Double,
    lowest: inout Int, highest: inout Int
  ) {
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
      cells[i] += height * (1 - inside)
      cells[i + 1] += height * inside
      lowest = min(lowest, i)
      highest = max(highest, i)
      return
    }
    if xl >= right { return }
    let slope = (yr - yl) / (xr - xl)
    var x = xl
    var y = yl
    if x < 0 {
      let y0 = yl + (0 - xl) * slope
      cells[0] += sign * (y0 - y)
      x = 0
      y = y0
      lowest = 0
    }
    let end = min(xr, right)
    var i = Int(x)
    lowest = min(lowest, i)
    while x < end {
      let nx = min(Double(i + 1), end)
      let ny = nx == xr ? yr : yl + (nx - xl) * slope
      let height = sign * (ny - y)
      let middle = (x + nx) / 2 - Double(i)
      cells[i] += height * (1 - middle)
      cells[i + 1] += height * middle
      x = nx
      y = ny
      i += 1
    }
    highest = max(highest, min(i, width) - 1)
  }
}
