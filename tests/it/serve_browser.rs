//! `arbiter serve` in a real browser: headless Chromium driven over WebDriver
//! (chromedriver). Two players and the referee play Spring 1901 on their pages: a
//! typo, its diagnostic, the fix, Submit, Judge, the sheet and the moved units. The
//! screenshots go to docs/serve/ (docs/SERVE.md shows them).
//!
//! Ignored unless ARBITER_BROWSER=1 (`.ci/run` sets it, and installs Debian's
//! `chromium` and `chromium-driver` when missing).

use crate::common::http::Served;
use crate::common::new_game;
use crate::common::temp_dir;
use crate::common::webdriver::Driver;

fn save(name: &str, png: &[u8]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/serve");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

#[test]
fn two_players_and_the_referee_play_spring_1901_in_a_browser() {
    if std::env::var("ARBITER_BROWSER").map_or(true, |v| v != "1") {
        eprintln!("skipped: set ARBITER_BROWSER=1 (with chromium and chromium-driver installed)");
        return;
    }
    let dir = temp_dir("serve-browser");
    let game = new_game(&dir);
    let s = Served::start(std::path::Path::new(&game), &[]);
    let d = Driver::start();
    // A phone's screen.
    d.size(412, 915);

    // France types with a typo: the server's diagnostic shows as they type.
    let france = d.open(&s.links["france"]);
    d.wait_text("#phase", "Spring 1901");
    d.type_text("#orders", "A Par - Burgundy\nA Mar - Spq\nF Bre - Mid Atl");
    let diag = d.wait_text("#diags", "error: unknown province `Spq`");
    assert!(diag.contains("serve/france.txt:2:9"), "{diag}");
    save("player-typo.png", &d.screenshot());
    // Submitting it is refused, and nothing is kept.
    d.click("#submit");
    d.wait_text("#saved", "the orders have errors");
    // Fixed, it is accepted.
    d.clear("#orders");
    d.type_text(
        "#orders",
        "A Par - Burgundy\nA Mar - Spain\nF Bre - Mid Atl",
    );
    d.wait_text("#diags", "No problems found.");
    d.click("#submit");
    d.wait_text("#saved", "Submitted");
    save("player-submitted.png", &d.screenshot());

    // Germany picks one order from a unit's legal orders and types the rest.
    let _germany = d.open(&s.links["germany"]);
    d.wait_text("#phase", "Spring 1901");
    d.click("#pick summary");
    d.script(
        "const s = document.querySelector('#legal select');\
         s.value = 'A BER - KIE'; s.dispatchEvent(new Event('change'));",
    );
    d.click("#legal button");
    d.type_text("#orders", "A Mun - Ruh\nF Kie - Den\n");
    d.wait_text("#diags", "No problems found.");
    d.click("#submit");
    d.wait_text("#saved", "Submitted");

    // The referee sees who is in, judges, and finds the sheet.
    let referee = d.open(s.referee.as_deref().unwrap());
    d.size(1280, 2200);
    d.wait_text("#power-france", "orders in");
    d.wait_text("#power-germany", "orders in");
    assert!(d.text("#power-italy").contains('—'));
    d.click("#power-france button");
    d.wait_text("#power-france", "New link");
    save("referee-orders-in.png", &d.screenshot());
    d.click("#judge");
    d.wait_text(
        "#judge-msg",
        "Judged Spring 1901 movement. Now: Fall 1901 movement.",
    );
    let sheet = d.wait_text("#sheet", "France: Army Paris -> Burgundy.");
    assert!(sheet.contains("Germany: Army Berlin -> Kiel."), "{sheet}");
    assert!(
        sheet.contains("France: Fleet Brest -> Mid-Atlantic Ocean."),
        "{sheet}"
    );
    d.wait_text("#phase", "Fall 1901 movement");
    d.script("window.scrollTo(0, 0)");
    save("referee-judged.png", &d.screenshot());
    let _ = referee;

    // France's phone shows the results and the units where they moved.
    d.switch(&france);
    d.size(412, 915);
    d.wait_text("#phase", "Fall 1901 movement");
    let units = d.wait_text("#units", "Army Burgundy");
    assert!(units.contains("Army Spain"), "{units}");
    assert!(units.contains("Fleet Mid-Atlantic Ocean"), "{units}");
    d.wait_text("#sheet", "France: Army Marseilles -> Spain.");
    // The board picture loaded.
    let loaded = d.script(
        "const i = document.getElementById('board'); return i.complete && i.naturalWidth > 0;",
    );
    assert_eq!(loaded, serde_json::Value::Bool(true));
    d.script("document.getElementById('results').scrollIntoView()");
    save("player-results.png", &d.screenshot());
}
