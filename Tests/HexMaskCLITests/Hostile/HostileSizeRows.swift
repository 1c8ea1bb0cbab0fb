/// Hostile-user rows: `--size` lists (every size from one command, names that
/// cannot tell the sizes apart, reruns that add a size) and what lists may name.
extension HostileUserTests {
  static let sizeListRows: [HostileCase] = [
    HostileCase(
      title: "a list of sizes writes one PNG per size, in any order",
      command: "hexmask in.jpg 'a-{size}.png' --size 64,128,32 --corner 8%", status: 0,
      firstError: nil,
      check: "[ $(side a-64.png) = 64 ] && [ $(side a-128.png) = 128 ] && [ $(side a-32.png) = 32 ]"
    ),
    HostileCase(
      title: "several sizes into one OUTPUT without {size} are refused",
      command: "hexmask in.jpg a.png --size 64,128", status: 2,
      firstError: "hexmask: OUTPUT 'a.png' names one file, but --size lists several; put {size} "
        + "in it (e.g. 'a-{size}.png')",
      check: "[ ! -e a.png ]"),
    HostileCase(
      title: "several sizes to standard output are refused",
      command: "hexmask in.jpg - --size 64,128 > out", status: 2,
      firstError: "hexmask: standard output takes one picture, but --size lists several; name "
        + "files with {size} (e.g. 'avatar-{size}.png')",
      check: "[ ! -s out ]"),
    HostileCase(
      title: "{size} without --size is refused",
      command: "hexmask in.jpg 'a-{size}.png'", status: 2,
      firstError: "hexmask: OUTPUT 'a-{size}.png' has {size}, which needs --size N (or a list "
        + "such as 64,128,256)"),
    HostileCase(
      title: "an empty entry in a size list is refused",
      command: "hexmask in.jpg 'a-{size}.png' --size 64,,128", status: 2,
      firstError: "hexmask: invalid value '64,,128' for '--size': expected a whole number from "
        + "1 to 65500, or several such as 64,128,256"),
    HostileCase(
      title: "one size too small for the corner writes none of the sizes",
      command: "hexmask in.jpg 'a-{size}.png' --size 256,8 --corner 20", status: 2,
      firstError: "hexmask: in.jpg: --corner 20 is too large: at most 2 fits a 8 px canvas with "
        + "this line and number of sides",
      check: "[ ! -e a-256.png ] && [ ! -e a-8.png ]"),
    HostileCase(
      title: "a list whose {size} name would be the input is refused, nothing written",
      setup: "cp in.jpg b-64.png", command: "hexmask b-64.png 'b-{size}.png' --size 128,64",
      status: 2,
      firstError: "hexmask: b-64.png: output is the input file; refusing to overwrite it",
      check: "[ ! -e b-128.png ]"),
    HostileCase(
      title: "--svg and --mask-only take lists without an input",
      command: "hexmask --svg 's-{size}.svg' --size 40,24 && "
        + "hexmask --mask-only --size 16,24 'm-{size}.png'",
      status: 0, firstError: nil,
      check: "grep -q 'viewBox=\"0 0 40 40\"' s-40.svg && grep -q 'viewBox=\"0 0 24 24\"' s-24.svg "
        + "&& [ $(side m-16.png) = 16 ] && [ $(side m-24.png) = 24 ]"),
    HostileCase(
      title: "--svg with several sizes needs {size} too",
      command: "hexmask in.jpg 'a-{size}.png' --size 32,64 --svg s.svg", status: 2,
      firstError: "hexmask: --svg 's.svg' names one file, but --size lists several; put {size} "
        + "in it (e.g. 's-{size}.svg')",
      check: "[ ! -e a-32.png ] && [ ! -e s.svg ]"),
    HostileCase(
      title: "a batch names several sizes {dir}/{name}-{size}.png, one --json row each",
      setup: "mkdir p && cp in.jpg p/a.jpg && cp small.png p/b.png",
      command: "hexmask p --out-dir o -q --size 32,16 --json > rows", status: 0, firstError: nil,
      check: "[ $(side o/a-32.png) = 32 ] && [ $(side o/a-16.png) = 16 ] && [ -e o/b-16.png ] "
        + "&& [ $(grep -c '\"status\":\"written\"' rows) = 4 ]"),
    HostileCase(
      title: "a rerun that adds a size makes only the new one",
      setup: "mkdir p && cp in.jpg p/a.jpg && hexmask p --out-dir o -q --size 32,16",
      command: "hexmask p --out-dir o -q --size 32,16,24 --json > rows", status: 0, firstError: nil,
      check:
        "[ $(grep -c '\"skipped\"' rows) = 2 ] && grep -q 'a-24.png\",\"status\":\"written\"' rows"),
    HostileCase(
      title: "a batch --name without {size} cannot hold several sizes",
      command: "hexmask in.jpg --out-dir o --size 32,16 --name '{name}.png'", status: 2,
      firstError: "hexmask: --name '{name}.png' names one file, but --size lists several; put "
        + "{size} in it (e.g. '{name}-{size}.png')",
      check: "[ ! -e o ]"),
    HostileCase(
      title: "a damaged input fails every size and is reported once",
      setup: "head -c 300 in.jpg > cut.jpg",
      command: "hexmask cut.jpg --out-dir o --size 32,16 --json > rows 2> errors", status: 1,
      firstError: nil,
      check: "[ $(grep -c '\"failed\"' rows) = 2 ] && [ $(grep -c 'cut.jpg' errors) = 1 ]"),
    HostileCase(
      title: "one size on a full device: none of the sizes appears",
      setup: "ln -s /dev/full z-128.png",
      command: "hexmask in.jpg 'z-{size}.png' --size 64,128", status: 1,
      firstError: "hexmask: z-128.png: cannot write: No space left on device",
      check: "[ ! -e z-64.png ] && [ -L z-128.png ]"),
    HostileCase(
      title: "a list that names the output folder (as find lists it) passes over it",
      setup: "mkdir o", command: "printf 'o\\nin.jpg\\n' | hexmask --files-from - --out-dir o -q",
      status: 0, firstError: nil, check: "is_png o/in.png && [ $(ls o | wc -l) = 1 ]"),
    HostileCase(
      title: "--files-from shards are disjoint and together list every input, in any order",
      setup: "mkdir p && for i in 1 2 3 4 5 6 7 8 9 10; do cp small.png p/f$i.png; done "
        + "&& ls p/*.png > list && sort -r list > reversed",
      command: "for i in 0 1 2; do hexmask --files-from list --out-dir x --dry-run "
        + "--shard $i/3 > a$i; hexmask --files-from reversed --out-dir x --dry-run "
        + "--shard $i/3 | sort -r > b$i; done",
      status: 0, firstError: nil,
      check: "[ $(cat a0 a1 a2 | sort -u | wc -l) = 10 ] && [ $(cat a0 a1 a2 | wc -l) = 10 ] "
        + "&& for i in 0 1 2; do [ \"$(sort a$i)\" = \"$(sort b$i)\" ] || exit 1; done"),
    HostileCase(
      title: "adding files moves no file to another shard",
      setup: "mkdir p && for i in 1 2 3 4 5 6 7 8; do cp small.png p/f$i.png; done "
        + "&& for i in 0 1 2 3; do hexmask p --out-dir x --dry-run --shard $i/4 > before$i; done",
      command: "for i in 9 10 11 12 13 14; do cp small.png p/f$i.png; done; "
        + "for i in 0 1 2 3; do hexmask p --out-dir x --dry-run --shard $i/4 > after$i; done",
      status: 0, firstError: nil,
      check: "for i in 0 1 2 3; do sort before$i > b; sort after$i > a; "
        + "[ -s b ] && [ -z \"$(comm -23 b a)\" ] || exit 1; done"),
  ]
}
