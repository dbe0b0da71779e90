// A GTP front for Egaroucid for Web, so that Parlor can play it as `external:NAME`.
//
// Usage: node benchmarks/egaroucid_gtp.js DIR LEVEL
//
// DIR holds Egaroucid for Web's compiled engine, `ai.js` and `ai.wasm` (in Egaroucid's
// public repository under docs/en/web/; its evaluation and book are inside the wasm).
// LEVEL is Egaroucid's level (its search depth), 1..60. This file is Parlor's own: it
// keeps the board, answers GTP's boardsize, clear_board, play, genmove, name, version,
// protocol_version, list_commands, komi and quit, and asks the engine for a move through
// its exported `ai_js(board, level, ai_player)` (board: 64 ints, row-major from a1,
// 0 black, 1 white, -1 empty; answer: 1000 * square + 100 + value).
"use strict";

const path = require("path");
const readline = require("readline");

const [dir, levelText] = process.argv.slice(2);
const level = Number(levelText);
if (!dir || !Number.isInteger(level) || level < 1 || level > 60) {
  process.stderr.write("usage: node egaroucid_gtp.js DIR LEVEL (1..60)\n");
  process.exit(2);
}

const reply = (text) => process.stdout.write(text);
console.log = () => {};  // the engine prints its search on stdout: keep GTP's stream clean
console.warn = () => {};

const EMPTY = -1, BLACK = 0, WHITE = 1;
const DIRS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
let board = [];

function clear() {
  board = new Array(64).fill(EMPTY);
  board[27] = WHITE; board[36] = WHITE;  // d4 e5
  board[28] = BLACK; board[35] = BLACK;  // e4 d5
}

function flips(cell, colour) {
  if (board[cell] !== EMPTY) return [];
  const row = Math.floor(cell / 8), col = cell % 8, out = [];
  for (const [dr, dc] of DIRS) {
    const line = [];
    let r = row + dr, c = col + dc;
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] === 1 - colour) {
      line.push(r * 8 + c); r += dr; c += dc;
    }
    if (line.length && r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] === colour) {
      out.push(...line);
    }
  }
  return out;
}

function legal(colour) {
  const moves = [];
  for (let cell = 0; cell < 64; cell++) if (flips(cell, colour).length) moves.push(cell);
  return moves;
}

function play(cell, colour) {
  const turned = flips(cell, colour);
  if (!turned.length) return false;
  board[cell] = colour;
  for (const t of turned) board[t] = colour;
  return true;
}

const coord = (cell) => "abcdefgh"[cell % 8] + String(Math.floor(cell / 8) + 1);

function parseCell(text) {
  const m = /^([a-h])([1-8])$/.exec(text.toLowerCase());
  return m ? (Number(m[2]) - 1) * 8 + "abcdefgh".indexOf(m[1]) : null;
}

function colourOf(text) {
  const t = (text || "").toLowerCase();
  if (t === "b" || t === "black") return BLACK;
  if (t === "w" || t === "white") return WHITE;
  return null;
}

let engine = null;
let boardPtr = 0;

function genmove(colour) {
  const moves = legal(colour);
  if (!moves.length) return "pass";
  for (let i = 0; i < 64; i++) engine.HEAP32[(boardPtr >> 2) + i] = board[i];
  const answer = engine._ai_js(boardPtr, level, colour);
  const cell = Math.floor(answer / 1000);
  if (!moves.includes(cell)) throw new Error(`the engine chose ${cell}, not a legal move`);
  play(cell, colour);
  return coord(cell);
}

const COMMANDS = ["protocol_version", "name", "version", "list_commands", "boardsize",
  "clear_board", "komi", "play", "genmove", "quit"];

function handle(line) {
  const words = line.replace(/#.*/, "").trim().split(/\s+/).filter(Boolean);
  let id = "";
  if (words.length && /^\d+$/.test(words[0])) id = words.shift();
  if (!words.length) return;
  const [command, ...args] = words;
  const ok = (text) => reply(`=${id} ${text}\n\n`);
  const fail = (text) => reply(`?${id} ${text}\n\n`);
  switch (command) {
    case "protocol_version": return ok("2");
    case "name": return ok("Egaroucid for Web");
    case "version": return ok(`level ${level}`);
    case "list_commands": return ok(COMMANDS.join("\n"));
    case "komi": return ok("");
    case "boardsize": return args[0] === "8" ? ok("") : fail("unacceptable size");
    case "clear_board": clear(); return ok("");
    case "play": {
      const colour = colourOf(args[0]);
      if (colour === null || !args[1]) return fail("syntax error");
      if (args[1].toLowerCase() === "pass") return ok("");
      const cell = parseCell(args[1]);
      if (cell === null || !play(cell, colour)) return fail("illegal move");
      return ok("");
    }
    case "genmove": {
      const colour = colourOf(args[0]);
      if (colour === null) return fail("syntax error");
      return ok(genmove(colour));
    }
    case "quit": ok(""); process.exit(0); break;
    default: return fail("unknown command");
  }
}

clear();
global.Module = { printErr: () => {} };
engine = require(path.resolve(dir, "ai.js"));
engine.printErr = () => {};
engine.onRuntimeInitialized = () => {
  const percent = engine._malloc(4);
  engine._init_ai(percent);
  boardPtr = engine._malloc(64 * 4);
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", handle);
  rl.on("close", () => process.exit(0));
};
