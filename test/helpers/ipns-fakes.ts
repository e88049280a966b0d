import { marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns';
import type { CID } from 'multiformats/cid';

/** Where scriptedNameNetwork says its records come from. */
export const ROUTING_SOURCE = 'http://routing.test';

/** A name network that answers the same records for every name (set by `answer`), and notes each name asked. */
export function scriptedNameNetwork() {
  let answers: Uint8Array[] = [];
  const asked: string[] = [];
  return {
    asked,
    answer(records: Uint8Array[]) {
      answers = records;
    },
    network: {
      async records(name: CID) {
        asked.push(name.toString());
        return answers.map((bytes) => ({ bytes, source: ROUTING_SOURCE }));
      },
    },
  };
}

/** The same record with its V2 signature broken: it no longer verifies against the name's key. */
export function forged(record: Uint8Array): Uint8Array {
  const parsed = unmarshalIPNSRecord(record);
  const signature = Uint8Array.from(parsed.signatureV2);
  signature[0] = (signature[0] ?? 0) ^ 0xff;
  return marshalIPNSRecord({ ...parsed, signatureV2: signature });
}
