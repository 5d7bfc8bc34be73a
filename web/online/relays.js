// The relays and STUN servers offered by default for play over the internet
// (docs/online.md, "Over the internet"). The site's build takes this file
// as it is: edit it to build a site with other defaults. A player changes
// them in the online page's settings, and may add their own TURN server.
// None of them is contacted before the player agrees on the page.
// Two kinds, used together: WebTorrent trackers (`wss://`) and Nostr relays
// (`nostr+wss://`, web/online/nostr.js).
export const DEFAULT_RELAYS = [
  "wss://tracker.openwebtorrent.com",
  "wss://tracker.webtorrent.dev",
  "wss://tracker.btorrent.xyz",
  "nostr+wss://relay.damus.io",
  "nostr+wss://nos.lol",
];
export const DEFAULT_STUN = [
  "stun:stun.l.google.com:19302",
  "stun:stun.cloudflare.com:3478",
];
