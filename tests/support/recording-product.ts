import type { Schema } from 'effect';
import { decodeOrThrow } from '../../server/route-kit/http';
import type { EnableRequest, EnableResult } from '../../server/route-kit/product-backend';
import type { ProductFactory } from '../../server/products/product-factory';

// A product back end for tests of the stack: it records every call the stack makes (enable, release) and writes a
// row in the same transaction, so a test sees whether the stack's transaction kept or dropped it. It never starts
// anything. `input` (a contract schema) makes enable validate the show-config input the way qryn and Hepic do.

export interface RecordedCall {
  kind: 'enable' | 'release';
  slug: string;
  integrationId: number;
  projectId: number;
  request?: EnableRequest;
}

export interface RecordingProductOptions {
  input?: Schema.Top & { readonly DecodingServices: never };
  result?: EnableResult;
  /** Throws from enable (after writing its row), to prove the stack's transaction undoes everything. */
  failEnable?: boolean;
  /** Registers a service for system status whose health the test switches. */
  service?: { name: string; running: () => boolean };
}

export function recordingProduct(slug: string, calls: RecordedCall[], options: RecordingProductOptions = {}): ProductFactory {
  return (platform) => {
    if (options.service) {
      const { running } = options.service;
      platform.services.register({ slug, name: slug }, options.service.name, async () => running());
    }
    return {
      slug,
      async enable(tx, request) {
        if (options.input) decodeOrThrow(options.input, request.input);
        // A trace in the transaction: the jobs table is the one every product may write to.
        await tx.query(`INSERT INTO jobs (kind, subject) VALUES ('test.enabled', $1)`, [`${slug}:${request.integrationId}`]);
        calls.push({ kind: 'enable', slug, integrationId: request.integrationId, projectId: request.projectId, request });
        if (options.failEnable) throw new Error(`${slug} could not start`);
        return options.result ?? {};
      },
      async release(_tx, integration) {
        calls.push({ kind: 'release', slug, ...integration });
      },
    };
  };
}
