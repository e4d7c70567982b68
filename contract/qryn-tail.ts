// How the live tail's WebSocket ends when its credential stops being valid (docs/qryn.md "Live tail"): the gateway
// checks the credential again while the tail is open, and closes with one of these codes (the WebSocket range for
// applications) and a sentence as the reason.

/** The console's access token expired: the tail may be opened again with a fresh one, from the last line's time. */
export const TAIL_CLOSE_TOKEN_EXPIRED = 4401;
/** The credential no longer gives read access (a rotated key, a deleted token, a removed member, a deleted project). */
export const TAIL_CLOSE_REVOKED = 4403;

export const TAIL_TOKEN_EXPIRED_REASON = 'The access token expired: open the tail again with a fresh one.';
export const TAIL_REVOKED_REASON = 'The credentials no longer give read access to this instance.';
