#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use arbiter::judge::{adjudicate, Rules};
use arbiter::map::Map;
use arbiter::orders::parse_orders;
use arbiter::state::Position;
fn main() {
    let map = Map::standard();
    let pos = Position::initial(&map);
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let parsed = parse_orders(&map, &text);
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut k = 0;
    for _ in 0..n {
        let r = adjudicate(&map, &pos, &parsed.orders, Rules::default()).unwrap();
        k += r.orders.len();
    }
    println!("{k}");
}
