import { picklist } from 'valibot';
import { CID_PROFILES, DEFAULTS, type CidProfileName } from '../base/config.js';
import type { SettingSpecs } from '../base/settings-schema.js';

/** How new content is laid out (contract section 5), in settings.json's `content` section. */
export type ContentSettingValues = {
  cid_profile: CidProfileName;
};

/** The next upload, DAG edit, folder operation or sync batch uses a change (content/cid-profile.ts). */
export const CONTENT_SETTINGS: SettingSpecs<ContentSettingValues> = {
  cid_profile: {
    section: 'content',
    schema: picklist(CID_PROFILES, `cid_profile: one of ${CID_PROFILES.join(', ')} is required`),
    fallback: DEFAULTS.cidProfile,
    flag: '--cid-profile',
    applies: 'now',
  },
};
