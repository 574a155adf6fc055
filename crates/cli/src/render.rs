//! `regionpath render`: draws a map, its hierarchy and paths into a PNG.
//!
//! The map area comes first (top), then a legend strip [`LEGEND_HEIGHT`]
//! pixels high with a swatch and a name per layer and the scale. Scale:
//! with `p` pixels per cell (`p >= 1`) cell `(x, y)` is the block of pixels
//! `[x p, x p + p) × [y p, y p + p)`; with `k` cells per pixel (`--scale`
//! below 1) pixel `(i, j)` shows cells `[i k, i k + k) × [j k, j k + k)`:
//! their mean colour, and the path colour if any of them is on a path.
//!
//! Regions are found sector by sector (the passable cells of a sector
//! joined by steps inside it; with no corner cutting these are its
//! 4-connected pieces) and named by [`Hierarchy::region_of`] once per
//! piece, so memory stays at one sector's labels plus the image. A sealed
//! piece (no move out of its sector) has no region and is drawn as open
//! ground.

use crate::args::{Layer, RenderArgs};
use crate::error::{CliError, Outcome};
use crate::font;
use crate::input::load_map;
use crate::out::Out;
use crate::path::hierarchy_with;
use crate::progress;
use clap::ValueEnum;
use image::{Rgb, RgbImage};
use regionpath::grid::{Grid, Point, Terrain};
use regionpath::{Config, Hierarchy, HierarchyConfig, Planner};
use serde_json::json;
use std::time::Instant;

/// Height of one row of the legend strip in pixels (entries wrap onto
/// more rows on narrow images).
pub const LEGEND_HEIGHT: u32 = font::HEIGHT * 2 + 6;
/// The default scale fits the longer side of the map to this many pixels.
pub const TARGET_SIDE: u32 = 2048;
/// Largest magnification of the default scale, pixels per cell.
pub const MAX_PIXELS_PER_CELL: u32 = 16;

/// Colour of the cells of a path.
pub const PATH: Rgb<u8> = Rgb([220, 20, 20]);
/// Colour of the smoothed polylines.
pub const SMOOTHED: Rgb<u8> = Rgb([20, 60, 230]);
/// Colour of the abstract routes.
pub const ROUTE: Rgb<u8> = Rgb([255, 150, 0]);
/// Colour of the sector borders.
pub const SECTOR: Rgb<u8> = Rgb([110, 110, 110]);
/// Colour of blocked cells.
pub const BLOCKED: Rgb<u8> = Rgb([35, 35, 40]);
/// Colour of passable cells when regions are not drawn.
pub const OPEN: Rgb<u8> = Rgb([235, 235, 230]);
const LEGEND_BG: Rgb<u8> = Rgb([255, 255, 255]);
const TEXT: Rgb<u8> = Rgb([0, 0, 0]);

/// How cells map to pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Each cell is an n × n block of pixels.
    Up(u32),
    /// Each pixel shows an n × n block of cells.
    Down(u32),
}

impl Scale {
    /// From `--scale` (pixels per cell) or, without it, fitting the longer
    /// side to about [`TARGET_SIDE`] pixels.
    pub fn choose(width: u32, height: u32, scale: Option<f64>) -> Scale {
        let side = width.max(height).max(1);
        match scale {
            Some(s) if s >= 1.0 => Scale::Up(s.round().max(1.0) as u32),
            Some(s) => Scale::Down((1.0 / s).round().max(1.0) as u32),
            None if side <= TARGET_SIDE => {
                Scale::Up((TARGET_SIDE / side).clamp(1, MAX_PIXELS_PER_CELL))
            }
            None => Scale::Down(side.div_ceil(TARGET_SIDE)),
        }
    }

    /// Pixels of `cells` cells.
    pub fn pixels(self, cells: u32) -> u32 {
        match self {
            Scale::Up(n) => cells.saturating_mul(n),
            Scale::Down(n) => cells.div_ceil(n),
        }
    }

    /// Pixels per cell as a number (below 1 when shrinking).
    pub fn pixels_per_cell(self) -> f64 {
        match self {
            Scale::Up(n) => f64::from(n),
            Scale::Down(n) => 1.0 / f64::from(n),
        }
    }

    /// A point in cell units to pixel units.
    fn to_px(self, v: f64) -> f64 {
        v * self.pixels_per_cell()
    }

    fn label(self) -> String {
        match self {
            Scale::Up(1) | Scale::Down(1) => "1 px per cell".into(),
            Scale::Up(n) => format!("{n} px per cell"),
            Scale::Down(n) => format!("1 px = {n}x{n} cells"),
        }
    }
}

/// A distinct, light colour for region `id` (hues spread by the golden
/// ratio, so neighbouring ids differ; pale, so paths stand out, and never
/// close to the path, route or blocked colours: every channel is at least
/// 160).
pub fn region_colour(id: u32) -> Rgb<u8> {
    hue_colour(f64::from(id) * 0.618_033_988_749_895, 0.32, 0.97)
}

/// Colour of ground (`.`, `G`) in the terrain layer.
pub const GROUND: Rgb<u8> = Rgb([232, 229, 214]);
/// Colour of swamp (`S`) in the terrain layer.
pub const SWAMP: Rgb<u8> = Rgb([140, 140, 62]);
/// Colour of water (`W`) in the terrain layer.
pub const WATER: Rgb<u8> = Rgb([66, 128, 214]);
/// Colour of forest (`T`) in the terrain layer.
pub const FOREST: Rgb<u8> = Rgb([52, 132, 64]);
/// Colour of roads (`=`) in the terrain layer.
pub const ROAD: Rgb<u8> = Rgb([184, 146, 98]);

/// Whether `t` is a wall kind (`@`, `O`: out of bounds), drawn dark in
/// every layer.
pub fn is_wall(t: Terrain) -> bool {
    matches!(t.to_char(), '@' | 'O')
}

/// The terrain layer's colour of kind `t`: the named kinds their fixed
/// colours, walls [`BLOCKED`], and any other character a colour of its own
/// (hue spread by the golden ratio over the character code, mid
/// saturation: never one of the named or layer colours, every channel at
/// least 100 so it stays clear of the path red and the dark walls). O(1).
pub fn terrain_colour(t: Terrain) -> Rgb<u8> {
    match t.to_char() {
        '.' | 'G' => GROUND,
        'S' => SWAMP,
        'W' => WATER,
        'T' => FOREST,
        '=' => ROAD,
        '@' | 'O' => BLOCKED,
        c => hue_colour(f64::from(c as u8) * 0.618_033_988_749_895 + 0.1, 0.5, 0.86),
    }
}

/// The colour of hue `turns` (fraction of a turn), saturation `s` and
/// value `v`.
fn hue_colour(turns: f64, s: f64, v: f64) -> Rgb<u8> {
    let h = turns.fract() * 6.0;
    let c = v * s;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let q = |t: f64| ((t + m) * 255.0).round() as u8;
    Rgb([q(r), q(g), q(b)])
}

/// `c` darkened towards [`BLOCKED`]: how positions unusable for the
/// profile are hatched (stripes of it, or the whole cell when cells are
/// small).
pub fn shade(c: Rgb<u8>) -> Rgb<u8> {
    Rgb(std::array::from_fn(|k| {
        ((u16::from(c.0[k]) * 45 + u16::from(BLOCKED.0[k]) * 55) / 100) as u8
    }))
}

/// Cells at least this many pixels wide are hatched in stripes; smaller
/// ones are darkened whole.
pub const HATCH_MIN_PIXELS: u32 = 4;

/// Whether pixel `(px, py)` of a hatched cell `n` pixels wide is on a
/// stripe (diagonal stripes two pixels wide, four apart).
fn on_stripe(px: u32, py: u32, n: u32) -> bool {
    n < HATCH_MIN_PIXELS || (px + py) % 4 < 2
}

/// Colour sums of the pixels while shrinking.
struct Sums {
    width: u32,
    sums: Vec<[u32; 4]>,
}

/// What fills the map area's cells.
#[derive(Clone, Copy, Debug)]
struct Fill {
    /// Usable positions by region.
    regions: bool,
    /// Cells by terrain kind (under the regions where both are on).
    terrain: bool,
    /// Hatch the positions unusable for the hierarchy's profile.
    hatch: bool,
}

/// Fills the map area: walls and blocked cells dark, the other cells by
/// region, terrain kind or plain, hatched where unusable for the profile —
/// sector by sector. Returns which characters the map's cells have.
fn draw_cells(
    img: &mut RgbImage,
    grid: &Grid,
    h: &Hierarchy,
    scale: Scale,
    fill: Fill,
) -> [bool; 128] {
    let (w, hgt) = (grid.width(), grid.height());
    // The unit's positions: the profile's position grid, else the map.
    let cells = h.profile_view().map_or(grid, |v| v.grid());
    let size = h.sector_size();
    let mut seen = [false; 128];
    let mut labels: Vec<u32> = Vec::new();
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let mut sums = match scale {
        Scale::Down(_) => Some(Sums {
            width: img.width(),
            sums: vec![[0; 4]; img.width() as usize * scale.pixels(hgt) as usize],
        }),
        Scale::Up(_) => None,
    };
    let mut put = |x: u32, y: u32, c: Rgb<u8>, hatched: bool| match (scale, sums.as_mut()) {
        (Scale::Up(n), _) => {
            let dark = shade(c);
            for py in y * n..y * n + n {
                for px in x * n..x * n + n {
                    let stripe = hatched && on_stripe(px, py, n);
                    img.put_pixel(px, py, if stripe { dark } else { c });
                }
            }
        }
        (Scale::Down(n), Some(s)) => {
            let c = if hatched { shade(c) } else { c };
            let e = &mut s.sums[(y / n) as usize * s.width as usize + (x / n) as usize];
            for (sum, v) in e.iter_mut().zip(c.0) {
                *sum += u32::from(v);
            }
            e[3] += 1;
        }
        (Scale::Down(_), None) => {}
    };
    for sy in (0..hgt).step_by(size as usize) {
        for sx in (0..w).step_by(size as usize) {
            let (x1, y1) = ((sx + size).min(w), (sy + size).min(hgt));
            let (rw, rh) = (x1 - sx, y1 - sy);
            labels.clear();
            labels.resize((rw * rh) as usize, u32::MAX);
            for y in sy..y1 {
                for x in sx..x1 {
                    let p = Point::new(x, y);
                    let kind = grid.terrain(p).unwrap_or(Terrain::OUT_OF_BOUNDS);
                    seen[usize::from(kind.to_char() as u8 & 0x7f)] = true;
                    let usable = cells.is_passable(p);
                    // Under a profile, a cell that is no wall but where the
                    // unit cannot stand is hatched.
                    let hatched = fill.hatch && !usable && !is_wall(kind);
                    if !usable || !fill.regions {
                        let c = if fill.terrain {
                            terrain_colour(kind)
                        } else if usable || hatched {
                            OPEN
                        } else {
                            BLOCKED
                        };
                        put(x, y, c, hatched);
                        continue;
                    }
                    let li = ((y - sy) * rw + (x - sx)) as usize;
                    if labels[li] == u32::MAX {
                        // A new piece of the sector: name it once, flood it.
                        // A sealed piece (no move out of its sector) is
                        // in no region: drawn as plain open ground.
                        let id = h.region_of(grid, p).map_or(SEALED, |r| r.get());
                        labels[li] = id;
                        stack.push((x, y));
                        while let Some((cx, cy)) = stack.pop() {
                            let near = [
                                (cx.wrapping_sub(1), cy),
                                (cx + 1, cy),
                                (cx, cy.wrapping_sub(1)),
                                (cx, cy + 1),
                            ];
                            for (nx, ny) in near {
                                if nx < sx || nx >= x1 || ny < sy || ny >= y1 {
                                    continue;
                                }
                                let ni = ((ny - sy) * rw + (nx - sx)) as usize;
                                if labels[ni] == u32::MAX && cells.is_passable(Point::new(nx, ny)) {
                                    labels[ni] = id;
                                    stack.push((nx, ny));
                                }
                            }
                        }
                    }
                    let c = match labels[li] {
                        SEALED if fill.terrain => terrain_colour(kind),
                        SEALED => OPEN,
                        id => region_colour(id),
                    };
                    put(x, y, c, false);
                }
            }
        }
    }
    if let Some(s) = sums {
        for (i, e) in s.sums.iter().enumerate() {
            if let Some(n) = std::num::NonZeroU32::new(e[3]) {
                let c = Rgb([(e[0] / n) as u8, (e[1] / n) as u8, (e[2] / n) as u8]);
                img.put_pixel(i as u32 % s.width, i as u32 / s.width, c);
            }
        }
    }
    seen
}

/// The label of a sealed piece of a sector in [`draw_cells`] (no region:
/// see [`Hierarchy::region_of`]); `u32::MAX` marks cells not yet named.
const SEALED: u32 = u32::MAX - 1;

/// Half [`SECTOR`], half what is under it (walls stay dark).
fn blend_sector(img: &mut RgbImage, x: u32, y: u32) {
    let under = img.get_pixel(x, y).0;
    let c = std::array::from_fn(|k| ((u16::from(under[k]) + u16::from(SECTOR.0[k])) / 2) as u8);
    img.put_pixel(x, y, Rgb(c));
}

/// Sector borders, where sectors are at least 4 pixels wide.
fn draw_sectors(img: &mut RgbImage, grid: &Grid, size: u32, scale: Scale) -> bool {
    if scale.pixels_per_cell() * f64::from(size) < 4.0 {
        return false;
    }
    let (pw, ph) = (scale.pixels(grid.width()), scale.pixels(grid.height()));
    for k in (size..grid.width()).step_by(size as usize) {
        let x = (scale.to_px(f64::from(k)) as u32).min(pw - 1);
        for y in 0..ph {
            blend_sector(img, x, y);
        }
    }
    for k in (size..grid.height()).step_by(size as usize) {
        let y = (scale.to_px(f64::from(k)) as u32).min(ph - 1);
        for x in 0..pw {
            blend_sector(img, x, y);
        }
    }
    true
}

/// A line from `a` to `b` (pixel units), `thick` pixels wide, clipped to
/// the map area.
fn draw_line(
    img: &mut RgbImage,
    area: (u32, u32),
    a: (f64, f64),
    b: (f64, f64),
    thick: u32,
    c: Rgb<u8>,
) {
    let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()) * 2.0)
        .ceil()
        .max(1.0) as u32;
    let half = (thick / 2) as i64;
    for i in 0..=steps {
        let t = f64::from(i) / f64::from(steps);
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        for dy in -half..thick as i64 - half {
            for dx in -half..thick as i64 - half {
                let (px, py) = (x.floor() as i64 + dx, y.floor() as i64 + dy);
                if px >= 0 && py >= 0 && (px as u32) < area.0 && (py as u32) < area.1 {
                    img.put_pixel(px as u32, py as u32, c);
                }
            }
        }
    }
}

/// The cells of a path: each cell's block, inset when cells are large, or
/// the pixel holding it.
fn draw_path_cells(img: &mut RgbImage, cells: &[Point], scale: Scale) {
    for p in cells {
        match scale {
            Scale::Up(n) => {
                let inset = if n >= 6 { n / 6 } else { 0 };
                for py in p.y * n + inset..p.y * n + n - inset {
                    for px in p.x * n + inset..p.x * n + n - inset {
                        img.put_pixel(px, py, PATH);
                    }
                }
            }
            Scale::Down(n) => img.put_pixel(p.x / n, p.y / n, PATH),
        }
    }
}

/// Side of a legend swatch in pixels.
const SWATCH: u32 = 10;

/// One legend entry: its swatch colour ([`LEGEND_BG`]: no swatch) and name.
type Entry = (Rgb<u8>, String);

/// Where the legend's entries go in an image `width` pixels wide: each
/// entry's (x, row), wrapping onto a new row where the next entry would
/// pass the right edge, up to `max_rows` rows (the entries that do not fit
/// stay on the last row, cut at the edge); and the number of rows (at
/// least 1).
fn legend_layout(entries: &[Entry], width: u32, max_rows: u32) -> (Vec<(u32, u32)>, u32) {
    let mut at = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (3u32, 0u32);
    for (colour, name) in entries {
        let swatch = if *colour == LEGEND_BG { 0 } else { SWATCH + 3 };
        let w = swatch + font::width(name, 2);
        if x > 3 && x + w > width && row + 1 < max_rows {
            (x, row) = (3, row + 1);
        }
        at.push((x, row));
        x += w + 10;
    }
    (at, row + 1)
}

/// The most legend rows under a map area `map_height` pixels high: the
/// legend takes at most a quarter of the map's height, and 2 rows at
/// least.
fn max_legend_rows(map_height: u32) -> u32 {
    (map_height / (4 * LEGEND_HEIGHT)).max(2)
}

/// The legend strip from pixel row `top` down: [`LEGEND_HEIGHT`] pixels
/// per row of `layout` ([`legend_layout`]).
fn draw_legend(img: &mut RgbImage, top: u32, entries: &[Entry], layout: &[(u32, u32)]) {
    for y in top..img.height() {
        for x in 0..img.width() {
            img.put_pixel(x, y, LEGEND_BG);
        }
    }
    let (w, h) = (img.width(), img.height());
    for ((colour, name), &(x0, row)) in entries.iter().zip(layout) {
        let y = top + row * LEGEND_HEIGHT + 3;
        let mut x = x0;
        if *colour != LEGEND_BG {
            for dy in 0..SWATCH {
                for dx in 0..SWATCH {
                    if x + dx < w && y + dy < h {
                        img.put_pixel(x + dx, y + dy, *colour);
                    }
                }
            }
            x += SWATCH + 3;
        }
        font::draw(name, 2, |dx, dy| {
            if x + dx < w && y + dy < h {
                img.put_pixel(x + dx, y + dy, TEXT);
            }
        });
    }
}

/// Whether the map has a terrain kind besides ground (`.`, `G`) and walls
/// (`@`, `O`): then the terrain layer is drawn by default. Reads the
/// grid's palette, O(1).
pub fn has_terrain(grid: &Grid) -> bool {
    grid.terrain_kinds()
        .iter()
        .any(|&t| !matches!(t.to_char(), '.' | 'G') && !is_wall(t))
}

/// The layers drawn without `--layers`: sectors, route and path, with the
/// terrain layer on maps of several terrain kinds ([`has_terrain`]; a game
/// map's swamp, water and roads are what its reader looks for) and the
/// region layer on the others; smoothed with `--smooth`.
pub fn default_layers(grid: &Grid, smooth: bool) -> Vec<Layer> {
    let fill = if has_terrain(grid) {
        Layer::Terrain
    } else {
        Layer::Regions
    };
    let mut v = vec![Layer::Sectors, fill, Layer::Route, Layer::Path];
    if smooth {
        v.push(Layer::Smoothed);
    }
    v
}

/// The legend's name of a terrain character: the named kinds by name, any
/// other as `kind C` (its code, `kind 126`, where the legend font lacks
/// the character or would draw a lower-case letter as a capital).
pub fn kind_name(c: char) -> String {
    match c {
        '.' | 'G' => "ground".into(),
        'S' => "swamp".into(),
        'W' => "water".into(),
        'T' => "forest".into(),
        '=' => "road".into(),
        '@' | 'O' => "blocked".into(),
        c if font::glyph(c).is_some() && !c.is_ascii_lowercase() => format!("kind {c}"),
        c => format!("kind {}", c as u32),
    }
}

/// The legend entries of the terrain layer: one per kind in `seen` (the
/// characters the cells have), ground first, then swamp, water, forest,
/// road, then the other characters in code order; walls are left to the
/// `blocked` entry.
fn terrain_entries(seen: &[bool; 128]) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    if seen[usize::from(b'.')] || seen[usize::from(b'G')] {
        out.push((GROUND, kind_name('.')));
    }
    let named = [b'S', b'W', b'T', b'='];
    for c in named {
        if seen[usize::from(c)] {
            out.push((
                terrain_colour(Terrain::from_char(c as char).unwrap_or(Terrain::GROUND)),
                kind_name(c as char),
            ));
        }
    }
    for (c, _) in seen.iter().enumerate().filter(|(_, &s)| s) {
        let ch = c as u8;
        if matches!(ch, b'.' | b'G' | b'@' | b'O') || named.contains(&ch) {
            continue;
        }
        if let Some(t) = Terrain::from_char(ch as char) {
            out.push((terrain_colour(t), kind_name(ch as char)));
        }
    }
    out
}

/// Runs `regionpath render`.
pub fn run(args: &RenderArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let t0 = Instant::now();
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let grid = load_map(&args.map)?;
    let layers = args
        .layers
        .clone()
        .unwrap_or_else(|| default_layers(&grid, args.smooth));
    let on = |l: Layer| layers.contains(&l);
    let big = grid.cell_count() >= progress::BIG_MAP_CELLS;
    let spinner = progress::spinner(
        !big || args.json,
        format!("preparing {}", args.map.display()),
    );
    let h = hierarchy_with(
        &args.map,
        &grid,
        args.hierarchy.as_deref(),
        &HierarchyConfig::default(),
        profile.as_ref(),
    );
    spinner.finish_and_clear();
    let h = h?;
    for q in &args.paths {
        for (x, y) in [(q[0], q[1]), (q[2], q[3])] {
            let p = Point::new(x, y);
            let usable = match h.profile_view() {
                Some(view) => view.is_usable(p),
                None => grid.in_bounds(p) && grid.is_passable(p),
            };
            if usable {
                continue;
            }
            let what = match &profile {
                _ if !grid.in_bounds(p) => "outside".to_string(),
                Some(prof) => format!(
                    "not a usable position for profile `{}` (a cell of its {k}x{k} footprint is off the map or has no cost)",
                    prof.name(),
                    k = prof.size()
                ),
                None => "a blocked cell".to_string(),
            };
            return Err(CliError::Usage(format!(
                "--path {},{},{},{}: {p} is {what} of {}",
                q[0],
                q[1],
                q[2],
                q[3],
                args.map.display()
            )));
        }
    }
    let mut planner = Planner::new(Config::new().smooth(args.smooth || on(Layer::Smoothed)))
        .map_err(|source| CliError::Path {
            map: args.map.clone(),
            source,
        })?;
    // (cells, waypoints, route) per path; None when unreachable.
    let mut planned = Vec::new();
    for q in &args.paths {
        let (start, goal) = (Point::new(q[0], q[1]), Point::new(q[2], q[3]));
        match planner.find_path(&h, &grid, start, goal) {
            Ok(p) => {
                let route: Vec<u32> = planner.route().map(|r| r.get()).collect();
                planned.push(Some((p, route)));
            }
            Err(e) if e.is_unreachable() => planned.push(None),
            Err(source) => {
                return Err(CliError::Path {
                    map: args.map.clone(),
                    source,
                })
            }
        }
    }

    let scale = Scale::choose(grid.width(), grid.height(), args.scale);
    let (pw, ph) = (scale.pixels(grid.width()), scale.pixels(grid.height()));
    let too_big = u64::from(pw) * u64::from(ph + LEGEND_HEIGHT) > 1 << 28;
    if too_big {
        return Err(CliError::Usage(format!(
            "--scale {} makes a {pw}x{ph} image of {}: choose a smaller scale",
            scale.pixels_per_cell(),
            args.map.display()
        )));
    }
    let mut img = RgbImage::new(pw, ph);
    let fill = Fill {
        regions: on(Layer::Regions),
        terrain: on(Layer::Terrain),
        hatch: profile.is_some(),
    };
    let seen = draw_cells(&mut img, &grid, &h, scale, fill);
    let mut legend: Vec<Entry> = Vec::new();
    if fill.regions {
        legend.push((region_colour(1), "regions".into()));
    }
    if fill.terrain {
        legend.extend(terrain_entries(&seen));
    } else if !fill.regions {
        legend.push((OPEN, "open".into()));
    }
    legend.push((BLOCKED, "blocked".into()));
    if let Some(p) = &profile {
        legend.push((
            shade(if fill.terrain { GROUND } else { OPEN }),
            format!("unusable for {}", p.name()),
        ));
    }
    if on(Layer::Sectors) {
        let drawn = draw_sectors(&mut img, &grid, h.sector_size(), scale);
        legend.push((
            SECTOR,
            if drawn {
                format!("sectors {0}x{0}", h.sector_size())
            } else {
                "sectors too small to draw".into()
            },
        ));
    }
    let thick = |base: u32| match scale {
        Scale::Up(n) if n >= 8 => base * 2,
        _ => base,
    };
    let area = (pw, ph);
    if on(Layer::Route) {
        for (_, route) in planned.iter().flatten() {
            let reps: Vec<(f64, f64)> = route
                .iter()
                .filter_map(|&r| h.regions().get(r as usize))
                .map(|r| {
                    let p = r.representative();
                    (
                        scale.to_px(f64::from(p.x) + 0.5),
                        scale.to_px(f64::from(p.y) + 0.5),
                    )
                })
                .collect();
            for pair in reps.windows(2) {
                draw_line(&mut img, area, pair[0], pair[1], thick(1), ROUTE);
            }
            for &r in &reps {
                draw_line(&mut img, area, r, r, thick(3), ROUTE);
            }
        }
        legend.push((ROUTE, "route".into()));
    }
    if on(Layer::Path) {
        for (p, _) in planned.iter().flatten() {
            draw_path_cells(&mut img, &p.cells, scale);
        }
        legend.push((PATH, "path".into()));
    }
    if on(Layer::Smoothed) {
        for (p, _) in planned.iter().flatten() {
            let pts: Vec<(f64, f64)> = p
                .waypoints
                .iter()
                .map(|w| (scale.to_px(f64::from(w.x)), scale.to_px(f64::from(w.y))))
                .collect();
            for pair in pts.windows(2) {
                draw_line(&mut img, area, pair[0], pair[1], thick(1), SMOOTHED);
            }
        }
        legend.push((SMOOTHED, "smoothed".into()));
    }
    legend.push((LEGEND_BG, scale.label()));
    // The legend strip goes under the map area: rows of pixels follow
    // each other in the buffer.
    let (layout, rows) = legend_layout(&legend, pw, max_legend_rows(ph));
    let legend_height = rows * LEGEND_HEIGHT;
    let mut raw = img.into_raw();
    raw.resize(raw.len() + pw as usize * legend_height as usize * 3, 255);
    let mut img = RgbImage::from_raw(pw, ph + legend_height, raw).ok_or_else(|| {
        CliError::Usage(format!(
            "a {pw}x{} image of {} does not fit in memory",
            ph + legend_height,
            args.map.display()
        ))
    })?;
    draw_legend(&mut img, ph, &legend, &layout);
    img.save_with_format(&args.out, image::ImageFormat::Png)
        .map_err(|e| CliError::Write {
            path: args.out.clone(),
            source: match e {
                image::ImageError::IoError(io) => io,
                other => std::io::Error::other(other.to_string()),
            },
        })?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let unreachable = planned.iter().filter(|p| p.is_none()).count();
    let outcome = if unreachable > 0 {
        Outcome::NoPath
    } else {
        Outcome::Ok
    };
    if args.json {
        let paths: Vec<_> = args
            .paths
            .iter()
            .zip(&planned)
            .map(|(q, p)| match p {
                Some((p, route)) => json!({
                    "query": q, "found": true, "cost": p.cost, "cells": p.cells.len(),
                    "positions": p.cells.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>(),
                    "route_regions": route.len(), "smoothed_length": p.smoothed_length,
                }),
                None => json!({"query": q, "found": false}),
            })
            .collect();
        let layer_names: Vec<String> = layers
            .iter()
            .filter_map(|l| l.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        let legend_json: Vec<_> = legend
            .iter()
            .filter(|(c, _)| *c != LEGEND_BG)
            .map(|(c, name)| json!({"name": name, "rgb": c.0}))
            .collect();
        out.line(json!({
            "status": outcome.status(),
            "exit_code": outcome.code(),
            "out": args.out.display().to_string(),
            "width": pw,
            "height": ph + legend_height,
            "map_height_px": ph,
            "legend_height": legend_height,
            "pixels_per_cell": scale.pixels_per_cell(),
            "layers": layer_names,
            "legend": legend_json,
            "profile": profile.as_ref().map(|p| p.name().to_string()),
            "paths": paths,
            "ms": ms,
        }))?;
    } else {
        out.line(format_args!(
            "wrote {} ({}x{} px, {}; {} path(s){}) in {:.0} ms",
            args.out.display(),
            pw,
            ph + legend_height,
            scale.label(),
            planned.len() - unreachable,
            if unreachable > 0 {
                format!(", {unreachable} unreachable")
            } else {
                String::new()
            },
            ms
        ))?;
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_fit_small_and_large_maps() {
        assert_eq!(Scale::choose(32, 32, None), Scale::Up(16));
        assert_eq!(Scale::choose(512, 300, None), Scale::Up(4));
        assert_eq!(Scale::choose(2048, 10, None), Scale::Up(1));
        assert_eq!(Scale::choose(16384, 16384, None), Scale::Down(8));
        assert_eq!(Scale::choose(4100, 50, None), Scale::Down(3));
        assert_eq!(Scale::choose(100, 100, Some(0.25)), Scale::Down(4));
        assert_eq!(Scale::choose(100, 100, Some(3.0)), Scale::Up(3));
        for (w, h) in [(32, 32), (1000, 700), (16384, 16384), (5000, 20)] {
            let s = Scale::choose(w, h, None);
            assert!(s.pixels(w.max(h)) <= TARGET_SIDE, "{w}x{h}: {s:?}");
            let least = (w.max(h) * MAX_PIXELS_PER_CELL).min(TARGET_SIDE / 2);
            assert!(s.pixels(w.max(h)) >= least, "{w}x{h}: {s:?}");
        }
        assert_eq!(Scale::Down(8).pixels(17), 3);
    }

    #[test]
    fn region_colours_stay_clear_of_the_layer_colours() {
        let mut seen = std::collections::HashSet::new();
        for id in 0..5000 {
            let c = region_colour(id);
            assert!(c.0.iter().all(|&v| v >= 160), "{id}: {c:?}");
            for other in [PATH, SMOOTHED, ROUTE, SECTOR, BLOCKED] {
                assert_ne!(c, other);
            }
            seen.insert(c);
        }
        // Neighbouring ids differ.
        for id in 0..1000 {
            assert_ne!(region_colour(id), region_colour(id + 1));
        }
        assert!(seen.len() > 300, "{} colours", seen.len());
    }

    #[test]
    fn terrain_colours_are_distinct_and_clear_of_the_layer_colours() {
        let kinds: Vec<Terrain> = ('!'..='~').filter_map(Terrain::from_char).collect();
        assert_eq!(kinds.len(), 94);
        let mut by_colour = std::collections::HashMap::new();
        for &t in &kinds {
            let c = terrain_colour(t);
            if is_wall(t) {
                assert_eq!(c, BLOCKED, "{t}");
                continue;
            }
            for other in [PATH, SMOOTHED, ROUTE, SECTOR, BLOCKED, OPEN] {
                assert_ne!(c, other, "{t}");
            }
            // Hatched cells stay apart from walls too.
            assert_ne!(shade(c), BLOCKED, "{t}");
            let group = if matches!(t.to_char(), '.' | 'G') {
                '.'
            } else {
                t.to_char()
            };
            if let Some(prev) = by_colour.insert(c, group) {
                assert_eq!(prev, group, "{t} shares a colour with {prev}");
            }
        }
        assert_eq!(terrain_colour(Terrain::WATER), WATER);
        assert_eq!(terrain_colour(Terrain::GROUND_G), GROUND);
        // Other kinds keep clear of the dark walls and the path red.
        for &t in &kinds {
            if !is_wall(t) && !"GSWT.=".contains(t.to_char()) {
                assert!(terrain_colour(t).0.iter().all(|&v| v >= 100), "{t}");
            }
        }
    }

    #[test]
    fn terrain_is_drawn_by_default_only_on_maps_with_terrain_kinds() {
        let plain = Grid::from_rows(&["..@", "G.O"]).unwrap();
        let swampy = Grid::from_rows(&["..@", "S.="]).unwrap();
        assert!(!has_terrain(&plain));
        assert!(has_terrain(&swampy));
        let d = default_layers(&plain, false);
        assert!(d.contains(&Layer::Regions) && !d.contains(&Layer::Terrain));
        let d = default_layers(&swampy, true);
        assert!(d.contains(&Layer::Terrain) && !d.contains(&Layer::Regions));
        assert!(d.contains(&Layer::Smoothed));
    }

    #[test]
    fn legend_entries_wrap_within_the_image() {
        let entries: Vec<Entry> = (0..12)
            .map(|i| (region_colour(i), format!("entry {i}")))
            .chain([(LEGEND_BG, "1 px per cell".to_string())])
            .collect();
        for width in [40u32, 120, 300, 2000] {
            let (at, rows) = legend_layout(&entries, width, 100);
            assert_eq!(at.len(), entries.len());
            assert_eq!(rows, at.iter().map(|a| a.1).max().unwrap() + 1);
            for (i, ((c, name), &(x, row))) in entries.iter().zip(&at).enumerate() {
                let w = if *c == LEGEND_BG { 0 } else { SWATCH + 3 } + font::width(name, 2);
                let alone = i == 0 || at[i - 1].1 != row;
                assert!(
                    x + w <= width || (alone && x == 3),
                    "{width}: {name} at {x}"
                );
            }
        }
        assert_eq!(legend_layout(&entries, 2000, 100).1, 1);
        assert!(legend_layout(&entries, 120, 100).1 > 3);
        // Capped: the rest stays on the last row.
        let (at, rows) = legend_layout(&entries, 120, 2);
        assert_eq!(rows, 2);
        assert!(at[2..].iter().all(|a| a.1 == 1), "{at:?}");
        assert_eq!(max_legend_rows(60), 2);
        assert_eq!(max_legend_rows(2048), 2048 / (4 * LEGEND_HEIGHT));
    }
}
