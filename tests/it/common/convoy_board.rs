//! A synthetic board for convoy legality at scale (issue 15, defect 11), shared by
//! `tests/it/convoy_scale.rs` and `benches/adjudicate.rs`: a grid of seas, each touching
//! its eight neighbours, with a shore down each side, a fleet in every sea and every
//! fleet ordered to convoy.

#![allow(dead_code)]

use std::fmt::Write;

use arbiter::map::{Map, Power, UnitKind};
use arbiter::orders::{parse_orders, Order};
use arbiter::state::{Position, Unit};

/// What kind of sea a convoy order's fleet stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sea {
    /// A sea of the grid.
    Grid,
    /// A sea in the army's own row: the straight route through the row needs it, so
    /// its convoy is legal.
    Row,
    /// A trap beside the far shore: it touches the last two seas of the army's row
    /// (which touch each other) and nothing else, so it lies on simple routes but on no
    /// route that needs all its fleets. Its convoy is illegal (6.G.19).
    Trap,
}

pub struct Board {
    pub yaml: String,
    /// Every unit, all of one power: the fleets, then the armies.
    pub units: Vec<(UnitKind, String)>,
    /// The orders, one a line: the fleets' convoys, then the armies' moves.
    pub orders: String,
    /// For the convoy orders (the first lines of `orders`), the kind of sea.
    pub order_sea: Vec<Sea>,
    pub armies: usize,
    pub rows: usize,
    pub cols: usize,
    pub traps: usize,
}

impl Board {
    /// The board loaded: its map, the position (every unit of the first power) and the
    /// orders, parsed without a diagnostic.
    pub fn load(&self) -> (Map, Position, Vec<Order>) {
        let map = Map::from_yaml(&self.yaml, "grid.yaml").expect("the grid board loads");
        let mut position = Position::initial(&map);
        position.units = self
            .units
            .iter()
            .map(|(kind, id)| Unit {
                power: Power(0),
                kind: *kind,
                loc: map.prov_by_id(id).expect("a province of the grid").into(),
            })
            .collect();
        let parsed = parse_orders(&map, &self.orders);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        (map, position, parsed.orders)
    }

    pub fn seas(&self) -> usize {
        self.rows * self.cols + self.traps
    }

    /// `rows` × `cols` seas; `armies` armies on the west shore (spread over the rows),
    /// each going by convoy to the east shore of its own row; `traps` trap seas. Each
    /// army has a band of rows, from its own to the next army's, and the fleets there
    /// convoy it; trap `k` convoys army `k mod armies` and is placed beside that army's
    /// destination.
    pub fn grid(rows: usize, cols: usize, armies: usize, traps: usize) -> Board {
        assert!(rows >= 2 && cols >= 2 && armies >= 1 && armies <= rows);
        let sea = |r: usize, c: usize| format!("s{r}x{c}");
        let army_row = |j: usize| j * rows / armies;
        let mut y = String::new();
        writeln!(
            y,
            "name: grid\nstart: {{season: spring, year: 1901}}\nvictory: 1"
        )
        .unwrap();
        writeln!(
            y,
            "powers:\n  - {{id: red, name: Red, adjective: Redish, home: [w0], units: []}}"
        )
        .unwrap();
        writeln!(y, "provinces:").unwrap();
        // The trap seas and the grid seas each touches.
        let trap_at: Vec<(usize, usize)> = (0..traps).map(|k| (k, army_row(k % armies))).collect();
        let mut extra: Vec<Vec<String>> = vec![Vec::new(); rows * cols];
        for &(k, r) in &trap_at {
            extra[r * cols + cols - 2].push(format!("t{k}"));
            extra[r * cols + cols - 1].push(format!("t{k}"));
        }
        for r in 0..rows {
            for c in 0..cols {
                let mut fleet = Vec::new();
                for dr in -1i64..=1 {
                    for dc in -1i64..=1 {
                        let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                        if (dr, dc) != (0, 0)
                            && (0..rows as i64).contains(&rr)
                            && (0..cols as i64).contains(&cc)
                        {
                            fleet.push(sea(rr as usize, cc as usize));
                        }
                    }
                }
                for dr in -1i64..=1 {
                    let rr = r as i64 + dr;
                    if !(0..rows as i64).contains(&rr) {
                        continue;
                    }
                    if c == 0 {
                        fleet.push(format!("w{rr}"));
                    }
                    if c == cols - 1 {
                        fleet.push(format!("e{rr}"));
                    }
                }
                fleet.extend(extra[r * cols + c].iter().cloned());
                writeln!(
                    y,
                    "  - {{id: {}, name: Sea {r} {c}, kind: sea, fleet: [{}]}}",
                    sea(r, c),
                    fleet.join(", ")
                )
                .unwrap();
            }
        }
        for &(k, r) in &trap_at {
            writeln!(
                y,
                "  - {{id: t{k}, name: Trap {k}, kind: sea, fleet: [{}, {}]}}",
                sea(r, cols - 2),
                sea(r, cols - 1)
            )
            .unwrap();
        }
        for (side, col) in [("w", 0), ("e", cols - 1)] {
            for r in 0..rows {
                let near = |rr: i64| (0..rows as i64).contains(&rr);
                let fleet: Vec<String> = (-1i64..=1)
                    .map(|d| r as i64 + d)
                    .filter(|&rr| near(rr))
                    .map(|rr| sea(rr as usize, col))
                    .collect();
                let army: Vec<String> = [-1i64, 1]
                    .iter()
                    .map(|d| r as i64 + d)
                    .filter(|&rr| near(rr))
                    .map(|rr| format!("{side}{rr}"))
                    .collect();
                let supply = if side == "w" && r == 0 {
                    ", supply: true, home: red"
                } else {
                    ""
                };
                writeln!(
                    y,
                    "  - {{id: {side}{r}, name: Shore {side} {r}, kind: coast{supply}, army: [{}], fleet: [{}]}}",
                    army.join(", "),
                    fleet.join(", ")
                )
                .unwrap();
            }
        }

        let mut units = Vec::new();
        let mut orders = String::new();
        let mut order_sea = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                // The army whose band of rows holds this one.
                let j = (0..armies).rev().find(|&j| army_row(j) <= r).unwrap();
                units.push((UnitKind::Fleet, sea(r, c)));
                let ar = army_row(j);
                writeln!(orders, "F {} C A w{ar} - e{ar}", sea(r, c)).unwrap();
                order_sea.push(if r == ar { Sea::Row } else { Sea::Grid });
            }
        }
        for &(k, r) in &trap_at {
            units.push((UnitKind::Fleet, format!("t{k}")));
            writeln!(orders, "F t{k} C A w{r} - e{r}").unwrap();
            order_sea.push(Sea::Trap);
        }
        for j in 0..armies {
            let ar = army_row(j);
            units.push((UnitKind::Army, format!("w{ar}")));
            writeln!(orders, "A w{ar} - e{ar}").unwrap();
        }
        Board {
            yaml: y,
            units,
            orders,
            order_sea,
            armies,
            rows,
            cols,
            traps,
        }
    }
}
