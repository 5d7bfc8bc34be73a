// What the table reads of the facade's state besides the renderer's view:
// who you are, the side each seat plays for and the newest move (the pages
// import them from web/table/core.js).

export function humanSeat(st) {
  return st ? st.human : 0;
}

/** The side a seat plays for, as the facade says (`sides`); null if unknown. */
export function sideOf(st, seat) {
  if (!st || seat === null || seat === undefined) return null;
  const i = st.sides.findIndex((members) => members.includes(seat));
  return i >= 0 ? i : null;
}

/** The newest move to show: a round-end frame's, else the last of the facade's move list. */
export function latestMove(st, frame = null) {
  if (frame && frame.move) return frame.move;
  return st.moves.length ? st.moves[st.moves.length - 1] : null;
}
