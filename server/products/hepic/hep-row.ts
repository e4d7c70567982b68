import type { TsvValue } from '../qryn/storage/storage-client';
import { summariseSip, type HepPacket } from './hep-decoder';

// One stored packet: the columns of `hepic_<id>.hep_packets` (hepic-storage.ts creates the table) and the row a
// decoded packet becomes. Kept apart from the listener and the storage so that the UDP worker thread
// (hep-udp-worker.ts) builds rows without loading either.

export type Transport = 'udp' | 'tcp';

export const PACKET_COLUMNS = [
  'date',
  'received_us',
  'timestamp_us',
  'transport',
  'capture_id',
  'node_name',
  'payload_type',
  'ip_family',
  'ip_protocol',
  'src_ip',
  'dst_ip',
  'src_port',
  'dst_port',
  'correlation_id',
  'sip_method',
  'sip_status',
  'call_id',
  'from_user',
  'to_user',
  'payload',
] as const;

const DATE = PACKET_COLUMNS.indexOf('date');
const RECEIVED_US = PACKET_COLUMNS.indexOf('received_us');

export function toRow(packet: HepPacket, transport: Transport, receivedMs: number): TsvValue[] {
  const sip = packet.payloadType === 1 || packet.payloadType === 0 ? summariseSip(packet.payload) : undefined;
  const capturedUs = BigInt(packet.timeSeconds) * 1_000_000n + BigInt(Math.min(packet.timeUseconds, 999_999));
  const row: Record<(typeof PACKET_COLUMNS)[number], TsvValue> = {
    date: new Date(receivedMs).toISOString().slice(0, 10),
    received_us: BigInt(Math.floor(receivedMs)) * 1000n,
    timestamp_us: capturedUs,
    transport,
    capture_id: packet.captureId,
    node_name: packet.nodeName,
    payload_type: packet.payloadType,
    ip_family: packet.ipFamily,
    ip_protocol: packet.ipProtocol,
    src_ip: packet.srcIp,
    dst_ip: packet.dstIp,
    src_port: packet.srcPort,
    dst_port: packet.dstPort,
    correlation_id: packet.correlationId,
    sip_method: sip?.method ?? '',
    sip_status: sip?.status ?? 0,
    call_id: sip?.callId ?? '',
    from_user: sip?.fromUser ?? '',
    to_user: sip?.toUser ?? '',
    payload: packet.payload.toString('utf8'),
  };
  return PACKET_COLUMNS.map((column) => row[column]);
}

/** Sets a row's receive time (the worker reads by the wall clock; the platform's business clock may differ). */
export function setReceived(row: TsvValue[], receivedMs: number): void {
  row[DATE] = new Date(receivedMs).toISOString().slice(0, 10);
  row[RECEIVED_US] = BigInt(Math.floor(receivedMs)) * 1000n;
}
