import { DEFAULTS, MAX_TIMER_SECONDS } from '../base/config.js';
import { wholeNumberSetting, type SettingSpecs } from '../base/settings-schema.js';

/** Garbage collection's timing (contract section 6), in settings.json's `gc` section. */
export type GcSettingValues = {
  gc_interval_seconds: number;
  gc_grace_seconds: number;
};

/**
 * Both apply at once: the periodic GC waits the new interval from the change on (app/gc-schedule.ts), and
 * the next cycle spares blocks written within the new grace. The bounds are the flags' (cli/args.ts).
 */
export const GC_SETTINGS: SettingSpecs<GcSettingValues> = {
  gc_interval_seconds: {
    section: 'gc',
    schema: wholeNumberSetting('gc_interval_seconds', 1, MAX_TIMER_SECONDS, 'seconds'),
    fallback: DEFAULTS.gcIntervalSeconds,
    flag: '--gc-interval',
    applies: 'now',
  },
  gc_grace_seconds: {
    section: 'gc',
    schema: wholeNumberSetting('gc_grace_seconds', 0, MAX_TIMER_SECONDS, 'seconds'),
    fallback: DEFAULTS.gcGraceSeconds,
    flag: '--gc-grace',
    applies: 'now',
  },
};
