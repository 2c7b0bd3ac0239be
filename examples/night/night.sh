#!/bin/sh
# A game night with slips as players hand them in: headers in many styles, file names
# that say the power, abbreviations, web-site sentences, misspellings, and mistakes the
# referee must send back. docs/GAMES.md ("A night at the table") walks through it; run
# it from the repository root:
#
#     sh examples/night/night.sh [GAME_FILE]
#
# ARBITER, if set, is the command to run (default: the release build, built first).
# tests/it/night.rs plays the same night and checks every ruling.
set -eu

if [ -z "${ARBITER:-}" ]; then
    cargo build --quiet --release
    arbiter=target/release/arbiter
else
    arbiter=$ARBITER
fi
game=${1:-"$(mktemp -d)/night.yaml"}
d=examples/night

# Judge the slips of phase directory $1 with each slip of $1/fixed/ in place of the
# slip of the same name: the new slips the players handed in when asked.
with_fixed() {
    for f in "$1"/*.txt; do
        n=$(basename "$f")
        if [ -f "$1/fixed/$n" ]; then echo "$1/fixed/$n"; else echo "$f"; fi
    done
}

$arbiter new "$game" --name "Club night"

# Spring 1901: every slip is read; nothing to send back.
$arbiter judge "$game" $d/1-spring-1901/*.txt

# Fall 1901: Austria ordered Italy's army, and Germany's slip is headed Spring 1901.
# Judging stops (exit code 1) and the game is unchanged; the referee asks both players.
$arbiter judge "$game" $d/2-fall-1901/*.txt || true
$arbiter judge "$game" $(with_fixed $d/2-fall-1901)

# Winter 1901: a build in an occupied centre, another power's waive, a fleet built in
# St Petersburg without its coast, a slip headed Spring 1902. The same again.
$arbiter status "$game"
$arbiter judge "$game" $d/3-winter-1901/*.txt || true
$arbiter judge "$game" $(with_fixed $d/3-winter-1901)

$arbiter judge "$game" $d/4-spring-1902/*.txt
$arbiter judge "$game" $d/5-fall-1902/*.txt --svg "$game.fall1902.svg"

# Fall 1902 retreat: both retreats are illegal; the refusal says where each unit may go.
$arbiter status "$game"
$arbiter judge "$game" $d/6-fall-1902-retreat/*.txt || true
$arbiter judge "$game" $(with_fixed $d/6-fall-1902-retreat)

# Winter 1902: a removal of another power's unit, a build outside the home centres, a
# build in an occupied centre; Russia orders one of its two removals.
$arbiter judge "$game" $d/7-winter-1902/*.txt || true
$arbiter judge "$game" $(with_fixed $d/7-winter-1902)

# The record.
$arbiter centres "$game"
$arbiter explain "$game" "Mid Atl" --phase "Fall 1902"
$arbiter explain "$game" bur --phase "Fall 1902"
$arbiter status "$game"
echo "The game file is $game."
