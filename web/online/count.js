// An online match in this phone's statistics, and the round's replay link
// in the summary (docs/online.md). Nothing is computed here: the page's
// Python (chkobba/online/page.py host_stats / guest_stats) adds the match
// from this phone's seat, once (its id is its record's, as at the table; a
// friend's page also keeps it as counted in its save), and a friend's only
// when every round was audited here and none failed. The replay link of a
// finished round (host_replay / guest_replay) stops at that round: the
// host's never holds the next deal.

import { STATS_KEY } from "../shell/stats.js";
import { appendReplayLink } from "../shell/share.js";
import { friend, guestKey, guestPy, host, hostPy, load, online, store } from "./common.js";

const counted = new Set();   // "role:match" asked already on this page (the host's page draws every second)

/** A finished match (an answer whose sheet is over) counted in this phone's statistics. */
export function countMatch(answer) {
  if (!answer || !answer.sheet || !answer.sheet.over) return;
  const role = online.role;
  const ready = role === "host" ? host.ready : role === "friend" && friend.ready;
  if (!ready) return;
  const match = role === "host" ? (host.last ? host.last.match : 0) : guestPy("status").match;
  const key = `${role}:${match}`;
  if (counted.has(key)) return;
  const raw = load(STATS_KEY);
  let stats = null;
  try { stats = raw === null ? null : JSON.parse(raw); } catch { return; }   // damaged: the Statistics dialog says so
  let answered = null;
  try {
    answered = role === "host" ? hostPy("stats", { stats, at: Date.now() }) : guestPy("stats", { stats, at: Date.now() });
  } catch (e) {
    online.statsError = e.message;   // a statistics problem never stops the table
    counted.add(key);
    return;
  }
  if (answered === null) return;   // nothing to count (yet: a friend's last audit may come later; or never: it failed)
  counted.add(key);
  if (answered && answered.added) store(STATS_KEY, JSON.stringify(answered.stats));
  if (role === "friend") store(guestKey(friend.table, friend.seat), JSON.stringify(guestPy("save")));   // counted, kept
  online.counted = (online.counted || 0) + (answered && answered.added ? 1 : 0);
}

/** The round's replay with every hand shown, under the summary (a round this phone can replay). */
export function appendOnlineReplay(box, round) {
  let link;
  try {
    link = online.role === "host" ? hostPy("replay", { round })
      : online.role === "friend" && friend.ready ? guestPy("replay", { round }) : null;
  } catch {
    return false;   // not over, or not audited on this phone (yet)
  }
  if (!link) return false;
  appendReplayLink(box, link, "share.round_replay_online_note");
  return true;
}
