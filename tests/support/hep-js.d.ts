// hep-js (sipcapture's HEP3 encoder and decoder) ships no types; the tests use it to produce real HEP v3 packets.
declare module 'hep-js' {
  export interface HepRcinfo {
    type?: string;
    version?: number;
    payload_type?: number;
    payloadType?: number;
    protocolFamily: number;
    protocol: number;
    srcIp: string;
    dstIp: string;
    srcPort: number;
    dstPort: number;
    timeSeconds: number;
    timeUseconds: number;
    captureId: number;
    capturePass?: string;
    hepNodeName?: string;
    correlation_id?: string;
    proto_type?: number;
    transaction_type?: string;
    mos?: number;
  }
  export function encapsulate(message: string, rcinfo: HepRcinfo): Buffer;
  export function decapsulate(message: Buffer): false | { rcinfo: Record<string, unknown>; payload: string } | undefined;
  const hep: { encapsulate: typeof encapsulate; decapsulate: typeof decapsulate };
  export default hep;
}
