//! Reading the pictures `arbiter::render` draws: the SVG as XML, and colours.

use arbiter::render::Scene;
use arbiter::state::Position;

/// A scene of `position` (and the phase judged from it) with no problems ringed.
pub fn scene<'a>(
    position: &'a Position,
    result: Option<&'a arbiter::game::PhaseResult>,
    title: &str,
    graph: bool,
) -> Scene<'a> {
    Scene {
        position,
        result,
        title: title.to_string(),
        problems: Vec::new(),
        bare: false,
        graph,
    }
}

/// Parse the SVG as XML (it must be well-formed) and check the root.
pub fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

/// Does the node's `class` list hold `class`?
pub fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

/// `#rrggbb` (or `rrggbb`) as its three channels.
pub fn rgb(hex: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// The phase judged from `position` with these orders (which must read without a
/// diagnostic).
pub fn judged(
    map: &arbiter::map::Map,
    position: &Position,
    orders: &str,
) -> arbiter::game::PhaseResult {
    let orders = arbiter::orders::parse_orders(map, orders);
    assert!(orders.diagnostics.is_empty(), "{:?}", orders.diagnostics);
    let rules = arbiter::judge::Rules::default();
    let (result, _) = arbiter::game::advance(map, rules, position, &orders.orders, None).unwrap();
    result
}

/// The small board of `tests/fixtures/maps/render.yaml`.
pub fn render_fixture() -> arbiter::map::Map {
    let file = "tests/fixtures/maps/render.yaml";
    let src = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap();
    arbiter::map::Map::from_yaml(&src, file).unwrap()
}
