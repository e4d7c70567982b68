import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import hep from 'hep-js';
import { HEPIC_KEY_ITEM_LABEL } from '../../contract/hepic';
import type { Database } from '../../server/db/database';
import type { ProductRegistry } from '../../server/products/product-registry';
import { createIntegration, addIntegrationUser } from '../../server/db/repositories/integrations-repository';
import type { HepicBackend } from '../../server/products/hepic/hepic-backend';
import { findInstanceOfProject, type HepicInstanceRow } from '../../server/products/hepic/hepic-repository';

// Hepic test helpers: enabling it the way the stack's call does, SIP messages, and HEP v3 packets produced by hep-js
// (sipcapture's encoder), sent over UDP and TCP.

export interface EnabledHepic {
  backend: HepicBackend;
  instance: HepicInstanceRow;
  /** The ingestion key from the enable answer: the database keeps only its hash. */
  apiKey: string;
  port: number;
}

export async function enableHepic(
  platform: { db: Database; products: ProductRegistry },
  projectId: number,
  userId: string,
  organizationId: number | null,
  input: Record<string, unknown> = { price_id: 'hepic-starter', cluster_id: 'shared-local' },
): Promise<EnabledHepic> {
  const backend = platform.products.get('hepic') as HepicBackend;
  const result = await platform.db.transaction(async (tx) => {
    const integrationId = await createIntegration(tx, { projectId, productSlug: 'hepic', status: 'active', creatorUserId: userId });
    await addIntegrationUser(tx, integrationId, userId, 'admin');
    return backend.enable(tx, { integrationId, projectId, userId, organizationId, input });
  });
  const apiKey = result.items?.find((item) => item.label === HEPIC_KEY_ITEM_LABEL)?.value;
  if (!apiKey) throw new Error('The Hepic enable answer carries no ingestion key.');
  return { backend, instance: (await findInstanceOfProject(platform.db, projectId))!, apiKey, port: backend.listener()!.port };
}

export function sipInvite(callId: string, from = 'alice', to = 'bob'): string {
  return [
    `INVITE sip:${to}@example.com SIP/2.0`,
    'Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK776asdhds',
    'Max-Forwards: 70',
    `To: Bob <sip:${to}@example.com>`,
    `From: Alice <sip:${from}@example.com>;tag=1928301774`,
    `Call-ID: ${callId}`,
    'CSeq: 314159 INVITE',
    `Contact: <sip:${from}@10.0.0.1>`,
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

export function sipResponse(callId: string, status = 200, reason = 'OK'): string {
  return [`SIP/2.0 ${status} ${reason}`, 'Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK776asdhds', 'To: <sip:bob@example.com>;tag=a6c85cf', 'From: <sip:alice@example.com>;tag=1928301774', `i: ${callId}`, 'CSeq: 314159 INVITE', 'Content-Length: 0', '', ''].join('\r\n');
}

/** A HEP v3 packet of a SIP message, as a capture agent sends it (hep-js encapsulate). */
export function hepPacket(message: string, authKey: string | undefined, overrides: Partial<import('hep-js').HepRcinfo> = {}): Buffer {
  const now = Date.now();
  return hep.encapsulate(message, {
    type: 'HEP',
    version: 3,
    payloadType: 1,
    protocolFamily: 2,
    protocol: 17,
    srcIp: '10.0.0.1',
    dstIp: '10.0.0.2',
    srcPort: 5060,
    dstPort: 5060,
    timeSeconds: Math.floor(now / 1000),
    timeUseconds: (now % 1000) * 1000,
    captureId: 2001,
    hepNodeName: 'test-agent',
    ...(authKey !== undefined ? { capturePass: authKey } : {}),
    ...overrides,
  });
}

export async function sendUdp(port: number, packets: readonly Buffer[], host = '127.0.0.1'): Promise<void> {
  const socket = createSocket('udp4');
  try {
    for (const packet of packets) await new Promise<void>((resolve, reject) => socket.send(packet, port, host, (error) => (error ? reject(error) : resolve())));
  } finally {
    socket.close();
  }
}

/** Sends the bytes on one TCP connection, in the given pieces (to cut packets across writes), then closes it. */
export async function sendTcp(port: number, pieces: readonly Buffer[], host = '127.0.0.1'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, host, async () => {
      for (const piece of pieces) {
        await new Promise<void>((done) => socket.write(piece, () => done()));
        await new Promise((r) => setTimeout(r, 5));
      }
      socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}
