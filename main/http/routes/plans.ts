import type { FastifyInstance } from 'fastify';
import type { PlanCatalog } from '../../accounts/plans.js';
import { ok } from '../envelope.js';

export function planRoutes(app: FastifyInstance, plans: PlanCatalog): void {
  app.get('/api/v0/plans', { config: { access: 'public' } }, async () => ok(plans.listed()));
}
