import type { ServiceFacts } from '../../../shared/api-types.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';

/**
 * The service's facts where the Sync pages use them: whether the gateway opens links without a key, and
 * the data folder the `pinfold sync add` command must name. Only a help: undefined until (or unless) known.
 */
export function useServiceFacts(): ServiceFacts | undefined {
  const api = useApi();
  const facts = useResource((signal) => api.service.facts(signal).catch(() => undefined), [api]);
  return facts.data;
}
