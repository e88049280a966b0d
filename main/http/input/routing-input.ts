import type { CID } from 'multiformats/cid';
import { object, pipe, rawTransform, transform, unknown, type GenericSchema } from 'valibot';
import { tryParseCid } from '../../base/cid-text.js';
import { tryParseIpnsName, type IpnsName } from '../../names/name-parse.js';
import { parseFilterParam, type RecordFilters } from '../routing-filters.js';
import { field } from './fields.js';

/**
 * The request schemas of the Delegated Routing V1 API a public gateway serves (routes/routing.ts), in the
 * words it has always answered with: a path parameter that is no CID, peer ID or IPNS name is a 400.
 */

/** A path parameter read by `read`, refused with `refusal(text)` when it reads as nothing. */
function pathParam<T>(read: (text: string) => T | undefined, refusal: (text: string) => string): GenericSchema<unknown, T> {
  return field(
    pipe(
      unknown(),
      // Fastify hands path parameters as text; anything else reads as the empty text, refused as such.
      transform((value) => (typeof value === 'string' ? value : '')),
      rawTransform<string, T>(({ dataset, addIssue, NEVER }) => {
        const parsed = read(dataset.value);
        if (parsed !== undefined) return parsed;
        addIssue({ message: refusal(dataset.value) });
        return NEVER;
      }),
    ),
  );
}

/** `GET /routing/v1/providers/{cid}`. */
export const ProvidersParams = object({
  cid: pathParam<CID>(tryParseCid, (text) => `cid: "${text}" is not a valid CID`),
});

/** `GET /routing/v1/peers/{peer-id}`: a peer ID in any spelling of a libp2p key. */
export const PeersParams = object({
  peerId: pathParam<IpnsName>(tryParseIpnsName, (text) => `peer-id: "${text}" is not a peer ID`),
});

/** `GET` and `PUT /routing/v1/ipns/{name}`: an IPNS name, a libp2p key's CID. */
export const IpnsNameParams = object({
  name: pathParam<IpnsName>(tryParseIpnsName, (text) => `name: "${text}" is not an IPNS name (a libp2p-key CID)`),
});

/** An IPIP-484 filter: its comma-separated names; one not given once (absent, repeated) filters nothing. */
const filterList = field(
  pipe(
    unknown(),
    transform((value) => (typeof value === 'string' ? parseFilterParam(value) : [])),
  ),
);

/** `?filter-addrs=` and `?filter-protocols=` of the providers and peers answers; they never refuse. */
export const RecordFiltersQuery: GenericSchema<unknown, RecordFilters> = pipe(
  object({ 'filter-addrs': filterList, 'filter-protocols': filterList }),
  transform((query) => ({ addrs: query['filter-addrs'], protocols: query['filter-protocols'] })),
);
