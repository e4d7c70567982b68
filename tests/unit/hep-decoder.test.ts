import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import hep from 'hep-js';
import { decodeHep, splitStream, summariseSip } from '../../server/products/hepic/hep-decoder';
import { hepPacket, sipInvite, sipResponse } from '../support/hepic';

// The HEP v3 decoder against packets produced by hep-js (sipcapture's encoder), and against hostile bytes.

describe('HEP v3 decoder', () => {
  it('reads every field hep-js writes, and agrees with hep-js own decoder', () => {
    const message = sipInvite('call-1@test');
    const bytes = hepPacket(message, 'secret-key', { srcIp: '192.168.1.10', dstIp: '10.1.2.3', srcPort: 5062, dstPort: 5080, timeSeconds: 1_700_000_000, timeUseconds: 123456, captureId: 42, hepNodeName: 'edge-1', correlation_id: 'corr-9' });
    const decoded = decodeHep(bytes);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.packet).toMatchObject({
      ipFamily: 2,
      ipProtocol: 17,
      srcIp: '192.168.1.10',
      dstIp: '10.1.2.3',
      srcPort: 5062,
      dstPort: 5080,
      timeSeconds: 1_700_000_000,
      timeUseconds: 123456,
      payloadType: 1,
      captureId: 42,
      authKey: 'secret-key',
      nodeName: 'edge-1',
      correlationId: 'corr-9',
    });
    expect(decoded.packet.payload.toString('utf8')).toBe(message);
    const theirs = hep.decapsulate(bytes) as { rcinfo: Record<string, unknown>; payload: string };
    expect(theirs.payload).toBe(message);
    expect(theirs.rcinfo.capturePass).toBe('secret-key');
    expect(theirs.rcinfo.srcIp).toBe('192.168.1.10');
  });

  it('a packet without an auth key decodes with authKey null', () => {
    const decoded = decodeHep(hepPacket(sipInvite('x'), undefined));
    expect(decoded.ok && decoded.packet.authKey).toBe(null);
  });

  it('summarises SIP requests and responses (compact header names too)', () => {
    expect(summariseSip(Buffer.from(sipInvite('abc@host', 'alice', 'bob')))).toEqual({ method: 'INVITE', status: 0, callId: 'abc@host', fromUser: 'alice', toUser: 'bob' });
    expect(summariseSip(Buffer.from(sipResponse('abc@host', 180, 'Ringing')))).toMatchObject({ method: '', status: 180, callId: 'abc@host' });
    expect(summariseSip(Buffer.from('not sip at all'))).toBeUndefined();
  });

  it('splits a TCP stream into packets wherever the writes were cut', () => {
    const packets = [hepPacket(sipInvite('a'), 'k'), hepPacket(sipResponse('a'), 'k'), hepPacket(sipInvite('b'), 'k')];
    const stream = Buffer.concat(packets);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 6 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        let buffer = Buffer.alloc(0);
        const found: Buffer[] = [];
        let start = 0;
        for (const end of [...points, stream.length]) {
          buffer = Buffer.concat([buffer, stream.subarray(start, end)]);
          start = end;
          const { packets: whole, rest, broken } = splitStream(buffer);
          expect(broken).toBe(false);
          found.push(...whole);
          buffer = Buffer.from(rest);
        }
        expect(found.map((p) => p.toString('hex'))).toEqual(packets.map((p) => p.toString('hex')));
      }),
    );
    expect(splitStream(Buffer.from('GET / HTTP/1.1\r\n\r\n')).broken).toBe(true);
  });

  it('never throws and never reads past the buffer on fuzzed input (random bytes, mutated and truncated packets)', () => {
    const base = hepPacket(sipInvite('fuzz'), 'key');
    const mutated = fc
      .array(fc.record({ at: fc.nat({ max: base.length - 1 }), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 })
      .map((changes) => {
        const copy = Buffer.from(base);
        for (const change of changes) copy[change.at] = change.value;
        return copy;
      });
    const truncated = fc.nat({ max: base.length }).map((n) => base.subarray(0, n));
    const random = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.concat([Buffer.from('HEP3'), Buffer.from(bytes)]));
    fc.assert(
      fc.property(fc.oneof(mutated, truncated, random, fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b))), (bytes) => {
        const result = decodeHep(bytes);
        if (result.ok) expect(result.packet.payload.length).toBeLessThanOrEqual(bytes.length);
        splitStream(bytes);
      }),
      { numRuns: 2000 },
    );
  });
});
