// HEP v3 (the sipcapture encapsulation protocol, EEP/HEP3) decoding. A packet is the magic "HEP3", its total length
// (u16, network order, the 6 header bytes included) and chunks: vendor id (u16), type (u16), chunk length (u16,
// its own 6 header bytes included) and data. Generic chunks (vendor 0) this platform reads are listed in CHUNK.
//
// Written here rather than taken from a library so that it never throws on hostile input (the listener is open to
// the network) and never reads past a buffer: every length is checked first. tests/unit/hep-decoder.test.ts checks
// it against packets produced by hep-js, sipcapture's encoder, and against fuzzed bytes.

export const HEP_MAGIC = 'HEP3';
export const HEP_HEADER_BYTES = 6;
const CHUNK_HEADER_BYTES = 6;

export const CHUNK = {
  ipFamily: 0x0001,
  ipProtocol: 0x0002,
  srcIp4: 0x0003,
  dstIp4: 0x0004,
  srcIp6: 0x0005,
  dstIp6: 0x0006,
  srcPort: 0x0007,
  dstPort: 0x0008,
  timeSeconds: 0x0009,
  timeUseconds: 0x000a,
  payloadType: 0x000b,
  captureId: 0x000c,
  authKey: 0x000e,
  payload: 0x000f,
  compressedPayload: 0x0010,
  correlationId: 0x0011,
  nodeName: 0x0013,
} as const;

export interface HepPacket {
  ipFamily: number;
  ipProtocol: number;
  srcIp: string;
  dstIp: string;
  srcPort: number;
  dstPort: number;
  timeSeconds: number;
  timeUseconds: number;
  /** 1 SIP, 5 RTCP, 32/35 QoS reports, 100 logs … */
  payloadType: number;
  captureId: number;
  authKey: string | null;
  correlationId: string;
  nodeName: string;
  payload: Buffer;
}

export type DecodeResult = { ok: true; packet: HepPacket } | { ok: false; reason: string };

/** The length a complete packet starting at `offset` has, from its header; undefined while fewer than 6 bytes. */
export function frameLength(buffer: Buffer, offset = 0): number | undefined {
  if (buffer.length - offset < HEP_HEADER_BYTES) return undefined;
  return buffer.readUInt16BE(offset + 4);
}

export function hasMagic(buffer: Buffer, offset = 0): boolean {
  return buffer.length - offset >= 4 && buffer.toString('latin1', offset, offset + 4) === HEP_MAGIC;
}

const ipv4 = (data: Buffer) => `${data[0]}.${data[1]}.${data[2]}.${data[3]}`;
function ipv6(data: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(data.readUInt16BE(i).toString(16));
  return groups.join(':');
}

/** Decodes one whole packet (exactly its bytes). Never throws. */
export function decodeHep(buffer: Buffer): DecodeResult {
  if (!hasMagic(buffer) || buffer.length < HEP_HEADER_BYTES) return { ok: false, reason: 'not HEP3' };
  const total = buffer.readUInt16BE(4);
  if (total < HEP_HEADER_BYTES || total > buffer.length) return { ok: false, reason: 'bad total length' };
  const packet: HepPacket = {
    ipFamily: 0,
    ipProtocol: 0,
    srcIp: '',
    dstIp: '',
    srcPort: 0,
    dstPort: 0,
    timeSeconds: 0,
    timeUseconds: 0,
    payloadType: 0,
    captureId: 0,
    authKey: null,
    correlationId: '',
    nodeName: '',
    payload: Buffer.alloc(0),
  };
  let hasPayload = false;
  let offset = HEP_HEADER_BYTES;
  while (offset < total) {
    if (total - offset < CHUNK_HEADER_BYTES) return { ok: false, reason: 'truncated chunk header' };
    const vendor = buffer.readUInt16BE(offset);
    const type = buffer.readUInt16BE(offset + 2);
    const length = buffer.readUInt16BE(offset + 4);
    if (length < CHUNK_HEADER_BYTES || offset + length > total) return { ok: false, reason: 'bad chunk length' };
    const data = buffer.subarray(offset + CHUNK_HEADER_BYTES, offset + length);
    offset += length;
    if (vendor !== 0) continue; // vendor extensions are skipped
    const need = (bytes: number) => data.length >= bytes;
    switch (type) {
      case CHUNK.ipFamily:
        if (need(1)) packet.ipFamily = data[0];
        break;
      case CHUNK.ipProtocol:
        if (need(1)) packet.ipProtocol = data[0];
        break;
      case CHUNK.srcIp4:
        if (need(4)) packet.srcIp = ipv4(data);
        break;
      case CHUNK.dstIp4:
        if (need(4)) packet.dstIp = ipv4(data);
        break;
      case CHUNK.srcIp6:
        if (need(16)) packet.srcIp = ipv6(data);
        break;
      case CHUNK.dstIp6:
        if (need(16)) packet.dstIp = ipv6(data);
        break;
      case CHUNK.srcPort:
        if (need(2)) packet.srcPort = data.readUInt16BE(0);
        break;
      case CHUNK.dstPort:
        if (need(2)) packet.dstPort = data.readUInt16BE(0);
        break;
      case CHUNK.timeSeconds:
        if (need(4)) packet.timeSeconds = data.readUInt32BE(0);
        break;
      case CHUNK.timeUseconds:
        if (need(4)) packet.timeUseconds = data.readUInt32BE(0);
        break;
      case CHUNK.payloadType:
        if (need(1)) packet.payloadType = data[0];
        break;
      case CHUNK.captureId:
        if (need(4)) packet.captureId = data.readUInt32BE(0);
        break;
      case CHUNK.authKey:
        packet.authKey = data.toString('utf8');
        break;
      case CHUNK.payload:
      case CHUNK.compressedPayload:
        packet.payload = Buffer.from(data);
        hasPayload = true;
        break;
      case CHUNK.correlationId:
        packet.correlationId = data.toString('utf8');
        break;
      case CHUNK.nodeName:
        packet.nodeName = data.toString('utf8');
        break;
      default:
        break;
    }
  }
  if (!hasPayload) return { ok: false, reason: 'no payload' };
  return { ok: true, packet };
}

/**
 * Splits a TCP stream into packets: packets follow one another, each framed by its header's length. Answers the
 * whole packets found and what is left over (the start of the next one). A stream that does not start with the
 * magic, or names a length shorter than a header, cannot be resynchronised: `broken` is then true.
 */
export function splitStream(buffer: Buffer): { packets: Buffer[]; rest: Buffer; broken: boolean } {
  const packets: Buffer[] = [];
  let offset = 0;
  for (;;) {
    if (buffer.length - offset < HEP_HEADER_BYTES) break;
    if (!hasMagic(buffer, offset)) return { packets, rest: Buffer.alloc(0), broken: true };
    const length = frameLength(buffer, offset)!;
    if (length < HEP_HEADER_BYTES) return { packets, rest: Buffer.alloc(0), broken: true };
    if (buffer.length - offset < length) break;
    packets.push(buffer.subarray(offset, offset + length));
    offset += length;
  }
  return { packets, rest: buffer.subarray(offset), broken: false };
}

export interface SipSummary {
  /** The request method (INVITE, BYE …) or '' for a response. */
  method: string;
  /** The response status code, 0 for a request. */
  status: number;
  callId: string;
  fromUser: string;
  toUser: string;
}

/** Reads the start line and the dialog headers of a SIP message; undefined when the payload is not SIP. */
export function summariseSip(payload: Buffer): SipSummary | undefined {
  const text = payload.toString('utf8', 0, Math.min(payload.length, 8192));
  const lines = text.split(/\r?\n/);
  const start = lines[0] ?? '';
  let method = '';
  let status = 0;
  const response = /^SIP\/2\.0 (\d{3})\b/.exec(start);
  const request = /^([A-Z]+) \S+ SIP\/2\.0$/.exec(start.trim());
  if (response) status = Number(response[1]);
  else if (request) method = request[1];
  else return undefined;
  const header = (...names: string[]) => {
    for (const line of lines.slice(1)) {
      if (line === '') break;
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      if (names.includes(line.slice(0, colon).trim().toLowerCase())) return line.slice(colon + 1).trim();
    }
    return '';
  };
  const user = (value: string) => /sips?:([^@;>]+)@/.exec(value)?.[1] ?? '';
  return { method, status, callId: header('call-id', 'i'), fromUser: user(header('from', 'f')), toUser: user(header('to', 't')) };
}
