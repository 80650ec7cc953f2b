import { CONVERGENCE } from './convergence.js';
import { EVENTS } from './emittedEvents.js';
import type { RenderedFamily } from './family.js';
import { GATES } from './gatedOn.js';
import { IN_CLUSTER } from './inCluster.js';
import { INTENT } from './intentReach.js';
import { KEYS } from './keys.js';
import { KUBECONFIG } from './kubeconfig.js';
import { METADATA } from './metadata.js';
import { NODE_LABELS } from './nodeLabels.js';
import { PERTURBATIONS } from './perturbations.js';
import { POLICIES } from './policies.js';
import { PRESENCE } from './rolePresence.js';
import { PROVIDER_CONFIG_REF } from './providerConfigRef.js';
import { REQUIREMENTS } from './requiredKinds.js';
import { STATUS } from './status.js';
import { STEPS } from './steps.js';
import { WIRING } from './resourceLinks.js';

/**
 * Every family of rendered facets, each with its meta and extractor: what the comparison across
 * providers extracts and the registry lists, in this order (per role, then per cell).
 */
export const RENDERED_FAMILIES: readonly RenderedFamily[] = [
  PRESENCE,
  KEYS,
  STEPS,
  GATES,
  INTENT,
  POLICIES,
  WIRING,
  NODE_LABELS,
  PROVIDER_CONFIG_REF,
  METADATA,
  IN_CLUSTER,
  CONVERGENCE,
  STATUS,
  KUBECONFIG,
  REQUIREMENTS,
  EVENTS,
  PERTURBATIONS,
];
