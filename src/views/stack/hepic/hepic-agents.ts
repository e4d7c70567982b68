// The Data Ingestion examples (spec 001 §2 Hepic: heplify by default, hepagent, hepgen), filled with the
// instance's HEP Endpoint and Token. Each agent puts the token in the HEP auth key (chunk 0x000e), which is how the
// endpoint tells instances apart; the same port takes UDP and TCP.
import type { HepicAgent } from '../../../../contract/hepic';

export interface AgentExample {
  agent: HepicAgent;
  title: string;
  intro: string;
  language: 'bash' | 'json' | 'javascript';
  code: string;
}

export function agentExamples(endpoint: string, token: string): AgentExample[] {
  const [host, port] = splitEndpoint(endpoint);
  return [
    {
      agent: 'heplify',
      title: 'heplify',
      intro: 'heplify captures SIP (and RTCP, logs) on an interface and sends it as HEP. Run it on the host that sees the VoIP traffic.',
      language: 'bash',
      code: `sudo ./heplify -i any -hs ${host}:${port} -hp '${token}' -hi 2001 -nt udp\n# over TCP instead of UDP:\nsudo ./heplify -i any -hs ${host}:${port} -hp '${token}' -hi 2001 -nt tcp`,
    },
    {
      agent: 'hepagent',
      title: 'hepagent.js',
      intro: 'hepagent.js tails logs and sends them as HEP. Put the endpoint and the token in its configuration file.',
      language: 'json',
      code: JSON.stringify({ hep_config: { debug: false, HEP_SERVER: host, HEP_PORT: Number(port), HEP_TRANS: 'udp', HEP_ID: 2001, HEP_AUTH: token } }, null, 2),
    },
    {
      agent: 'hepgen',
      title: 'hepgen.js',
      intro: 'hepgen.js sends scripted HEP packets (a SIP call, RTCP): a quick way to see data arrive before an agent runs.',
      language: 'javascript',
      code: `// config.js of hepgen.js\nvar config = {\n  HEP_SERVER: '${host}',\n  HEP_PORT: ${port},\n  HEP_ID: '2001',\n  HEP_AUTH: '${token}',\n  MESSAGES: [ /* your scenario */ ],\n};\nmodule.exports = config;\n// then: node hepgen.js -c ./config.js`,
    },
  ];
}

function splitEndpoint(endpoint: string): [string, string] {
  const at = endpoint.lastIndexOf(':');
  return at < 0 ? [endpoint, '9060'] : [endpoint.slice(0, at), endpoint.slice(at + 1)];
}

/** data-ingestion/agents--{method}: the method named in the path, when it is one of the agents. */
export function agentOfPath(segment: string | undefined): HepicAgent | null {
  const match = /^agents--(heplify|hepagent|hepgen)$/.exec(segment ?? '');
  return match ? (match[1] as HepicAgent) : null;
}
