import path from 'node:path';
import { CID } from 'multiformats/cid';
import {
  array,
  boolean,
  check,
  custom,
  forward,
  maxLength,
  object,
  optional,
  pipe,
  rawTransform,
  string,
  transform,
  unknown,
  type GenericSchema,
} from 'valibot';
import { tryParseIpnsName } from '../../names/name-parse.js';
import { parseFollowTarget } from '../../sync/follow/follow-target.js';
import { validateIgnorePatterns } from '../../sync/ignore-rules.js';
import { parseRetention } from '../../sync/retention.js';
import type { SyncAddInput, SyncFollowInput } from '../../sync/sync-service.js';
import { emptyAsAbsent, field, parsedBy, parsedTogether, queryFlag } from './fields.js';

/**
 * The request schemas of the sync routes (contract sections 9 and 11, the window's extensions): the type,
 * presence, length and range of each field, in the order the routes always checked them. What needs the
 * folders (a path that is no folder, a name another folder publishes, an id of no folder) is the service's to
 * refuse; what needs a domain's rules (a retention policy, an ignore pattern, a follow target) its parser's,
 * called here. The history routes' schemas are in sync-history-input.ts.
 */

const MAX_ID = 64;
const MAX_FOLDER_PATH = 4096;
const MAX_IGNORE_PATTERNS = 1000;
/** A follow target's text: a name, a path or a gateway URL, never this long. */
const MAX_FOLLOW_NAME = 2048;

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** A sync folder's id (`id` of the query). */
export const SyncId: GenericSchema<unknown, string> = field(
  pipe(
    unknown(),
    custom<unknown>(given, 'id is required'),
    custom<unknown>((value) => typeof value === 'string' && value.length <= MAX_ID, 'id must be a sync folder id'),
    transform(String),
  ),
);

export const SyncIdQuery = object({ id: SyncId });

/** sync/add's query: `wait` absent or `true` (answer once the first scan is pinned), or `false`. */
export const SyncAddQuery = object({ wait: queryFlag('wait', true) });

/** sync/publish's query: the folder, and `force` (`true` over a newer record of its name seen elsewhere). */
export const SyncPublishQuery = object({ id: SyncId, force: queryFlag('force', false) });

/** The text of a folder's path (sync/add, sync/follow): present, absolute, not absurdly long; not yet looked at on the disk. */
export const FolderPathText: GenericSchema<unknown, string> = field(
  pipe(
    unknown(),
    custom<unknown>(given, 'path is required'),
    string('path must be a string'),
    check((text) => text.length <= MAX_FOLDER_PATH && !text.includes('\0'), 'path is not a valid folder path'),
    check((text) => path.isAbsolute(text), 'path must be absolute'),
  ),
);

/** Ignore patterns: an array of at most 1000 texts, each a pattern its domain takes (sync/ignore-rules.ts). */
const ignorePatterns = pipe(
  array(unknown(), 'ignore must be an array of gitignore patterns'),
  maxLength(MAX_IGNORE_PATTERNS, `ignore has more than ${MAX_IGNORE_PATTERNS} patterns`),
  rawTransform<unknown[], string[]>(({ dataset, addIssue, NEVER }) => {
    const index = dataset.value.findIndex((pattern) => typeof pattern !== 'string');
    if (index === -1) return dataset.value.map(String);
    addIssue({ message: `ignore[${index}] must be a string` });
    return NEVER;
  }),
  parsedBy((patterns: string[]) => validateIgnorePatterns(patterns)),
);

/** `ipns_name` of sync/add: an IPNS name, in its canonical spelling; undefined when absent or empty. */
const givenIpnsName = field(
  pipe(
    unknown(),
    transform(emptyAsAbsent),
    rawTransform<unknown, string | undefined>(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === undefined) return undefined;
      const parsed = typeof dataset.value === 'string' ? tryParseIpnsName(dataset.value.trim()) : undefined;
      if (parsed !== undefined) return parsed.name;
      addIssue({ message: 'ipns_name must be an IPNS name (k51…)' });
      return NEVER;
    }),
  ),
);

/** The body of sync/add. */
export const SyncAddBody: GenericSchema<unknown, SyncAddInput> = pipe(
  object({
    ipns: field(
      pipe(
        unknown(),
        transform((value) => value ?? true),
        boolean('ipns must be true or false'),
      ),
    ),
    ipns_name: givenIpnsName,
    ignore: field(
      pipe(
        unknown(),
        transform((value) => value ?? []),
        ignorePatterns,
      ),
    ),
    // Anything but text reads as the empty policy, refused with the message that says what a policy is.
    keep: field(
      pipe(
        unknown(),
        transform((value) => (value === null ? undefined : typeof value === 'string' ? value : '')),
        optional(pipe(string(), parsedBy(parseRetention))),
      ),
    ),
    path: FolderPathText,
  }),
  forward(
    check((body) => body.ipns || body.ipns_name === undefined, 'ipns_name cannot be given with ipns: false'),
    ['ipns_name'],
  ),
  transform(({ path: folderPath, ipns, ipns_name: ipnsName, ignore, keep }) => ({
    path: folderPath,
    ipns,
    ignore,
    ...(ipnsName === undefined ? {} : { ipnsName }),
    ...(keep === undefined ? {} : { keep }),
  })),
);

/** The body of sync/follow: what to follow (name, from), then where; the target parsed by its domain. */
export const SyncFollowBody: GenericSchema<unknown, SyncFollowInput> = pipe(
  object({
    name: field(
      pipe(
        unknown(),
        custom<unknown>(given, 'name is required: an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>'),
        string('name must be an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>'),
        maxLength(MAX_FOLLOW_NAME, 'name must be an IPNS name, /ipns/<name> or a gateway URL ending in /ipns/<name>'),
      ),
    ),
    from: field(
      pipe(
        unknown(),
        transform((value) => value ?? []),
        array(string('from: an http or https URL is required'), 'from: a list of URLs is required'),
      ),
    ),
    path: FolderPathText,
  }),
  parsedTogether(({ name, from, path: folderPath }) => ({ target: parseFollowTarget(name, from), path: folderPath })),
);

/** The body of sync/ignore: `ignore` required (`[]` clears them). */
export const SyncIgnoreBody = object({
  ignore: field(
    pipe(
      unknown(),
      custom<unknown>((value) => value !== undefined && value !== null, 'ignore is required (an array of gitignore patterns; [] for none)'),
      ignorePatterns,
    ),
  ),
});

/** The body of sync/retention: `keep` required, the policy's text. */
export const SyncRetentionBody = object({
  keep: field(pipe(string('keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w'), parsedBy(parseRetention))),
});

/** A parameter naming a version by its root (`root`, `from`, `to`): a CID; whether the folder kept it is the service's to say. */
export const versionRoot = (name: string): GenericSchema<unknown, CID> =>
  field(
    pipe(
      unknown(),
      custom<unknown>((value) => typeof value === 'string' && value !== '', `${name} is required (a version's root CID)`),
      transform(String),
      rawTransform<string, CID>(({ dataset, addIssue, NEVER }) => {
        try {
          return CID.parse(dataset.value);
        } catch {
          addIssue({ message: `${name} is not a valid CID: ${dataset.value.slice(0, 100)}` });
          return NEVER;
        }
      }),
    ),
  );
