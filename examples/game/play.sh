#!/bin/sh
# Play the scripted game of examples/game/ from Spring 1901 to Winter 1902 with the
# referee's commands. Run from the repository root:
#
#     sh examples/game/play.sh [GAME_FILE]
#
# GAME_FILE defaults to demo.yaml in a fresh temporary directory. tests/it/games.rs plays
# the same game and checks every ruling. ARBITER, if set, is the command to run
# (default: the release build of this repository, built first).
set -eu

if [ -z "${ARBITER:-}" ]; then
    # The first build on a fresh clone compiles every dependency: say so before it goes
    # quiet (to standard error, so the game's output stays as shown in the README).
    if [ ! -x target/release/arbiter ]; then
        echo "Building arbiter (release) for the first time: about 2 minutes on 2 cores..." >&2
    fi
    cargo build --quiet --release
    arbiter=target/release/arbiter
else
    arbiter=$ARBITER
fi
game=${1:-"$(mktemp -d)/demo.yaml"}
dir=examples/game

$arbiter new "$game" --name demo

# Spring 1901: two bounces (Galicia, Black Sea); the retreat phase is skipped.
$arbiter judge "$game" $dir/1-spring-1901/*.txt

# Fall 1901, judged by mistake without Austria's orders ...
$arbiter judge "$game" $dir/2-fall-1901/england.txt $dir/2-fall-1901/france.txt \
    $dir/2-fall-1901/germany.txt $dir/2-fall-1901/italy.txt \
    $dir/2-fall-1901/russia.txt $dir/2-fall-1901/turkey.txt
# ... so the referee takes it back and judges it again with every file.
$arbiter undo "$game"
$arbiter judge "$game" $dir/2-fall-1901/*.txt

# Who must retreat, and where each unit may go.
$arbiter status "$game"
$arbiter judge "$game" $dir/3-fall-1901-retreat/*.txt

# Who builds or removes how many, and where.
$arbiter status "$game"
# Turkey's `Build A Sev` is illegal (not a home centre), so judging stops with an error
# (exit code 1) and the game is unchanged; the referee asks Turkey, then judges the
# orders as they are with --accept: the build is void and the sheet says why.
$arbiter judge "$game" $dir/4-winter-1901/*.txt || true
$arbiter judge "$game" $dir/4-winter-1901/*.txt --accept

$arbiter judge "$game" $dir/5-spring-1902/*.txt
$arbiter judge "$game" $dir/6-spring-1902-retreat/*.txt
$arbiter judge "$game" $dir/7-fall-1902/*.txt
$arbiter status "$game"
$arbiter judge "$game" $dir/8-winter-1902/*.txt

# The record: past sheets, the centre table, and why things happened.
$arbiter history "$game" "Fall 1901"
$arbiter centres "$game"
$arbiter centres "$game" --format csv
$arbiter explain "$game" sev --phase "Spring 1902"
$arbiter status "$game"
echo "The game file is $game."
