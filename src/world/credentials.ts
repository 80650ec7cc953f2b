import type { Adapter, K8sObject, Scenario } from '../config/types.js';
import { mergePatch } from '../util/objects.js';
import { worldCredentials } from './xr.js';

/**
 * The world's credentials after `break-credentials`: the same resources, still found by the
 * function's requirements, with the content the adapter says makes them unusable on its cloud
 * (`world.brokenCredentials`, a JSON merge patch; by default a source that is not a Secret).
 */
export function brokenCredentials(adapter: Adapter, scenario: Scenario): K8sObject[] {
  return worldCredentials(adapter, scenario).map((resource) => mergePatch(resource, adapter.world.brokenCredentials) as K8sObject);
}
