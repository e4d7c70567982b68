import type { Writable } from 'node:stream';

// The JSON of a query answer as pieces (head, the result's items, tail) rather than one string: the evaluation ends
// first (errors and the answer caps are known before any piece exists), the items are written one at a time into
// pieces of about PIECE_CHARS, and the gateway writes the pieces to the client as the socket takes them. The pieces
// joined are exactly JSON.stringify of the whole answer.

/** A body: one text, or pieces written in order. */
export type AnswerBody = string | string[];

const PIECE_CHARS = 64 * 1024;

/**
 * `head` + the items joined by commas + `tail`, in pieces; `item(i)` is asked once per item, in order, so that a
 * caller may drop each item as soon as it is written.
 */
export function jsonPieces(head: string, count: number, item: (i: number) => string, tail: string): string[] {
  const pieces: string[] = [];
  let current = head;
  for (let i = 0; i < count; i++) {
    current += i > 0 ? `,${item(i)}` : item(i);
    if (current.length >= PIECE_CHARS) {
      pieces.push(current);
      current = '';
    }
  }
  pieces.push(current + tail);
  return pieces;
}

/**
 * `{"status":"success","data":{"resultType":…,"result":[…],…inData},…after}` with `result` written item by item
 * (`item(i)`, once each, in order).
 */
export function successPieces(resultType: string, count: number, item: (i: number) => string, inData: Record<string, unknown> = {}, after: Record<string, unknown> = {}): string[] {
  const fields = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('');
  return jsonPieces(`{"status":"success","data":{"resultType":${JSON.stringify(resultType)},"result":[`, count, item, `]${fields(inData)}}${fields(after)}}`);
}

export const bodyBytes = (body: AnswerBody): number => (typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((n, p) => n + Buffer.byteLength(p), 0));

export const bodyText = (body: AnswerBody): string => (typeof body === 'string' ? body : body.join(''));

/**
 * Writes the body and ends the response, a piece at a time: the next piece only once the socket took the last one
 * (`drain`), so at most one piece waits in the response's buffer. A client that goes away ends the writing. Each
 * piece is let go (its slot emptied) once written.
 */
export async function writeBody(res: Writable, body: AnswerBody): Promise<void> {
  if (typeof body === 'string') {
    res.end(body);
    return;
  }
  for (let i = 0; i < body.length; i++) {
    if (res.destroyed) return;
    const piece = body[i];
    body[i] = '';
    if (!res.write(piece)) await drained(res);
  }
  if (!res.destroyed) res.end();
}

function drained(res: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
